// A domain checked against DNS, now (POST /api/domains/:id/verify) or by the hourly job (recheck-job.ts). The
// status moves in one transaction here, and only here: pending → verified; verified → failing when the
// records are gone; failing → invalid after FAILING_GRACE_MS; any → verified when they are back. A transient
// DNS failure changes no status. Becoming verified or failing records domain.verified or domain.failing for the
// owner's webhooks, in the same transaction. Becoming verified lets go of other accounts' unverified claims of the
// name; while another account serves it, a proof verifies nothing (docs/decisions/0044).
import { and, eq, inArray, ne } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Domain } from "../db/tables.ts";
import { checkDns, type DnsCheck } from "./check-dns.ts";
import { announceDomainChange, type DomainDeps } from "./deps.ts";
import { DOMAIN_SERVED_ELSEWHERE, FAILING_GRACE_MS, isServed, SERVED_STATUSES, type DomainStatus } from "./model.ts";
import { recordEvent } from "../webhooks/record-event.ts";

const UNVERIFIED: DomainStatus[] = ["pending", "invalid"];

type Outcome = { status: DomainStatus; failingSince: Date | null; reason: string | null };

function next(domain: Domain, check: DnsCheck, now: number): Outcome {
  const status = domain.status as DomainStatus;
  if (check.kind === "proven") return { status: "verified", failingSince: null, reason: null };
  if (check.kind === "unknown") return { status, failingSince: domain.failingSince, reason: check.reason };
  if (status === "verified") return { status: "failing", failingSince: new Date(now), reason: check.reason };
  if (status === "failing" && domain.failingSince && now - domain.failingSince.getTime() >= FAILING_GRACE_MS) {
    return {
      status: "invalid",
      failingSince: domain.failingSince,
      reason: `${check.reason} (failing for 7 days: no longer served)`,
    };
  }
  return { status, failingSince: domain.failingSince, reason: check.reason };
}

/** domain.verified or domain.failing when the domain has just become so (invalid has no event). */
async function recordStatusEvent(tx: Db, domain: Domain, outcome: Outcome, at: number): Promise<void> {
  const base = { workspaceId: domain.workspaceId, at };
  if (outcome.status === "verified")
    await recordEvent(tx, { ...base, type: "domain.verified", data: { domain: domain.hostname } });
  if (outcome.status === "failing")
    await recordEvent(tx, {
      ...base,
      type: "domain.failing",
      data: { domain: domain.hostname, reason: outcome.reason ?? "" },
    });
}

/** Another workspace's domain of the same name, verified or failing: it keeps the name until it is invalid. */
async function servedElsewhere(tx: Db, domain: Domain): Promise<boolean> {
  const { domains } = tablesOf(tx);
  const [other] = await tx
    .select({ id: domains.id })
    .from(domains)
    .where(
      and(
        eq(domains.hostname, domain.hostname),
        ne(domains.workspaceId, domain.workspaceId),
        inArray(domains.status, SERVED_STATUSES),
      ),
    );
  return other !== undefined;
}

/** Checks the domain's records and stores what they say; the updated row. */
export async function verifyDomain(deps: DomainDeps, domain: Domain): Promise<Domain> {
  const { domains } = tablesOf(deps.database.db);
  const check = await checkDns(deps.resolver, domain.hostname, domain.verificationToken, deps.routing);
  const now = deps.clock.now();
  let outcome = next(domain, check, now);
  const becomesServed = isServed(outcome.status) && !isServed(domain.status);
  if (becomesServed && (await servedElsewhere(deps.database.db, domain)))
    outcome = {
      status: domain.status as DomainStatus,
      failingSince: domain.failingSince,
      reason: DOMAIN_SERVED_ELSEWHERE,
    };
  const store = () =>
    deps.database.transaction(async (tx) => {
      // The proof displaces other accounts' unverified claims (their links go back to the service address).
      if (becomesServed)
        await tx
          .delete(domains)
          .where(
            and(eq(domains.hostname, domain.hostname), ne(domains.id, domain.id), inArray(domains.status, UNVERIFIED)),
          );
      const [row] = await tx
        .update(domains)
        .set({ ...outcome, lastCheckedAt: new Date(now), updatedAt: new Date(now) })
        .where(eq(domains.id, domain.id))
        .returning();
      if (outcome.status !== domain.status) await recordStatusEvent(tx, domain, outcome, now);
      return row;
    });
  // Two accounts proving one name at once: the unique index lets one of them serve it.
  const updated = await store().catch((error: unknown) => {
    if (deps.database.isUniqueViolation(error)) return { ...domain, reason: DOMAIN_SERVED_ELSEWHERE };
    throw error;
  });
  if (!updated) return domain;
  if (outcome.status !== domain.status) await announceDomainChange(deps);
  return updated;
}
