// POST /api/domains: a hostname the user's plan allows, normalised, not ours, not served for another account;
// pending until its DNS records prove it (verify.ts). Another account's unverified claim blocks nothing and is not
// told: whoever proves the name first serves it (docs/decisions/0044).
import { and, count, eq, inArray, or, sql } from "drizzle-orm";
import { entitlementFor } from "../plans/entitlement.ts";
import { tablesOf } from "../db/tables.ts";
import type { Acting } from "../workspaces/acting.ts";
import { badRequest, conflict, forbidden } from "../http/errors.ts";
import { announceDomainChange, type DomainDeps } from "./deps.ts";
import { DOMAIN_SERVED_ELSEWHERE, SERVED_STATUSES } from "./model.ts";
import { checkNewHostname } from "./normalise-hostname.ts";
import { presentDomain } from "./present.ts";
import type { DomainJson } from "./wire.ts";

export const DOMAIN_CLAIMED = "This domain has already been added";

const newToken = () => `linkprev-verify=${crypto.randomUUID().replaceAll("-", "")}`;

export async function createDomain(
  deps: DomainDeps,
  { user, workspace }: Acting,
  input: { hostname: string },
): Promise<DomainJson> {
  const { domains, workspaces } = tablesOf(deps.database.db);
  const checked = checkNewHostname(input.hostname, deps.ownHosts);
  if (!checked.ok) throw badRequest(checked.message, "hostname");
  const { plan } = await entitlementFor(deps.database.db, deps.billingEnabled, workspace.id, deps.clock.now());
  if (plan.domains === 0)
    throw forbidden("Custom domains are available on the Pro and Enterprise plans. Upgrade at /pricing.");
  try {
    const row = await deps.database.transaction(async (tx) => {
      // The workspace's row lock first, so that concurrent adds count the same domains one after another.
      await tx
        .update(workspaces)
        .set({ name: sql`${workspaces.name}` })
        .where(eq(workspaces.id, workspace.id));
      const [owned] = await tx.select({ n: count() }).from(domains).where(eq(domains.workspaceId, workspace.id));
      if (Number(owned?.n ?? 0) >= plan.domains)
        throw forbidden(
          `Your plan includes ${plan.domains} custom domain${plan.domains === 1 ? "" : "s"}; remove one or upgrade at /pricing.`,
        );
      const [taken] = await tx
        .select({ workspaceId: domains.workspaceId })
        .from(domains)
        .where(
          and(
            eq(domains.hostname, checked.hostname),
            or(eq(domains.workspaceId, workspace.id), inArray(domains.status, SERVED_STATUSES)),
          ),
        );
      if (taken) throw conflict(taken.workspaceId === workspace.id ? DOMAIN_CLAIMED : DOMAIN_SERVED_ELSEWHERE);
      const [inserted] = await tx
        .insert(domains)
        .values({
          userId: user.id,
          workspaceId: workspace.id,
          hostname: checked.hostname,
          verificationToken: newToken(),
        })
        .returning();
      return inserted!;
    });
    await announceDomainChange(deps);
    return presentDomain(row, deps.routing, 0);
  } catch (error) {
    if (deps.database.isUniqueViolation(error)) throw conflict(DOMAIN_CLAIMED);
    throw error;
  }
}
