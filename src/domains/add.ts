// POST /api/domains: a hostname the user's plan allows, normalised, not ours and not anyone's yet; pending
// until its DNS records prove it (verify.ts).
import { count, eq, sql } from "drizzle-orm";
import { entitlementFor } from "../billing/entitlement.ts";
import { domains, users, type User } from "../db/tables.ts";
import { badRequest, conflict, forbidden } from "../http/errors.ts";
import { announceDomainChange, type DomainDeps } from "./deps.ts";
import { checkNewHostname } from "./normalise-hostname.ts";
import { presentDomain } from "./present.ts";
import type { DomainJson } from "./wire.ts";

export const DOMAIN_CLAIMED = "This domain has already been added";

const newToken = () => `linkprev-verify=${crypto.randomUUID().replaceAll("-", "")}`;

export async function addDomain(deps: DomainDeps, user: User, input: { hostname: string }): Promise<DomainJson> {
  const checked = checkNewHostname(input.hostname, new URL(deps.publicUrl).hostname);
  if (!checked.ok) throw badRequest(checked.message, "hostname");
  const { plan } = await entitlementFor(deps.db, deps.billingEnabled, user.id, deps.clock.now());
  if (plan.domains === 0) throw forbidden("Custom domains are available on the Pro and Enterprise plans. Upgrade at /pricing.");
  try {
    const row = await deps.database.transaction(async (tx) => {
      // The user's row lock first, so that concurrent adds count the same domains one after another.
      await tx.update(users).set({ updatedAt: sql`${users.updatedAt}` }).where(eq(users.id, user.id));
      const [owned] = await tx.select({ n: count() }).from(domains).where(eq(domains.userId, user.id));
      if (Number(owned?.n ?? 0) >= plan.domains) throw forbidden(`Your plan includes ${plan.domains} custom domain${plan.domains === 1 ? "" : "s"}; remove one or upgrade at /pricing.`);
      const [taken] = await tx.select({ id: domains.id }).from(domains).where(eq(domains.hostname, checked.hostname));
      if (taken) throw conflict(DOMAIN_CLAIMED);
      const [inserted] = await tx.insert(domains).values({ userId: user.id, hostname: checked.hostname, verificationToken: newToken() }).returning();
      return inserted!;
    });
    await announceDomainChange(deps);
    return presentDomain(row, deps.routing, 0);
  } catch (error) {
    if (deps.database.isUniqueViolation(error)) throw conflict(DOMAIN_CLAIMED);
    throw error;
  }
}
