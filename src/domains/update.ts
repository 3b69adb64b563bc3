// PATCH /api/domains/:id: where / and unknown addresses on the domain go (null: the small page, the 404 page).
import { eq } from "drizzle-orm";
import { domains, type User } from "../db/tables.ts";
import { announceDomainChange, type DomainDeps } from "./deps.ts";
import { findDomain, getDomain } from "./queries.ts";
import type { DomainJson } from "./wire.ts";

export async function updateDomain(deps: DomainDeps, user: User, id: number, input: { rootUrl?: string | null; notFoundUrl?: string | null }): Promise<DomainJson> {
  const domain = await findDomain(deps.db, user, id);
  await deps.db
    .update(domains)
    .set({
      ...(input.rootUrl !== undefined ? { rootUrl: input.rootUrl } : {}),
      ...(input.notFoundUrl !== undefined ? { notFoundUrl: input.notFoundUrl } : {}),
      updatedAt: new Date(deps.clock.now()),
    })
    .where(eq(domains.id, domain.id));
  await announceDomainChange(deps);
  return getDomain(deps, user, id);
}
