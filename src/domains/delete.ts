// DELETE /api/domains/:id: refused while live links use the domain (the owner moves or deletes them first, so
// that no shared address silently changes); deleted links let go of it.
import { and, count, eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { conflict } from "../http/errors.ts";
import { announceDomainChange, type DomainDeps } from "./deps.ts";
import { findDomain } from "./queries.ts";
import type { Workspace } from "../workspaces/acting.ts";

export const DOMAIN_IN_USE = (n: number) =>
  `${n} link${n === 1 ? " uses" : "s use"} this domain: move ${n === 1 ? "it" : "them"} to another address or delete ${n === 1 ? "it" : "them"} first`;

export async function deleteDomain(deps: DomainDeps, workspace: Workspace, id: number): Promise<void> {
  const { domains, links } = tablesOf(deps.database.db);
  const domain = await findDomain(deps.database.db, workspace, id);
  await deps.database.transaction(async (tx) => {
    const [used] = await tx
      .select({ n: count() })
      .from(links)
      .where(and(eq(links.domainId, domain.id), eq(links.deleted, false)));
    const n = Number(used?.n ?? 0);
    if (n > 0) throw conflict(DOMAIN_IN_USE(n));
    await tx.update(links).set({ domainId: null }).where(eq(links.domainId, domain.id));
    await tx.delete(domains).where(eq(domains.id, domain.id));
  });
  await announceDomainChange(deps);
}
