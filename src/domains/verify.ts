// A domain checked against DNS, now (POST /api/domains/:id/verify) or by the hourly job (recheck-job.ts). The
// status moves in one transaction here, and only here: pending → verified; verified → failing when the
// records are gone; failing → invalid after FAILING_GRACE_MS; any → verified when they are back. A transient
// DNS failure changes no status. This is where domain.verified and domain.failing events belong.
import { eq } from "drizzle-orm";
import { domains, type Domain } from "../db/tables.ts";
import { checkDns, type DnsCheck } from "./check-dns.ts";
import { announceDomainChange, type DomainDeps } from "./deps.ts";
import { FAILING_GRACE_MS, type DomainStatus } from "./model.ts";

type Outcome = { status: DomainStatus; failingSince: Date | null; reason: string | null };

function next(domain: Domain, check: DnsCheck, now: number): Outcome {
  const status = domain.status as DomainStatus;
  if (check.kind === "proven") return { status: "verified", failingSince: null, reason: null };
  if (check.kind === "unknown") return { status, failingSince: domain.failingSince, reason: check.reason };
  if (status === "verified") return { status: "failing", failingSince: new Date(now), reason: check.reason };
  if (status === "failing" && domain.failingSince && now - domain.failingSince.getTime() >= FAILING_GRACE_MS) {
    return { status: "invalid", failingSince: domain.failingSince, reason: `${check.reason} (failing for 7 days: no longer served)` };
  }
  return { status, failingSince: domain.failingSince, reason: check.reason };
}

/** Checks the domain's records and stores what they say; the updated row. */
export async function verifyDomain(deps: DomainDeps, domain: Domain): Promise<Domain> {
  const check = await checkDns(deps.resolver, domain.hostname, domain.verificationToken, deps.routing);
  const now = deps.clock.now();
  const outcome = next(domain, check, now);
  const updated = await deps.database.transaction(async (tx) => {
    const [row] = await tx
      .update(domains)
      .set({ ...outcome, lastCheckedAt: new Date(now), updatedAt: new Date(now) })
      .where(eq(domains.id, domain.id))
      .returning();
    // Webhook seam: record domain.verified / domain.failing here, in this transaction, when outcome.status !== domain.status.
    return row;
  });
  if (!updated) return domain;
  if (outcome.status !== domain.status) await announceDomainChange(deps);
  return updated;
}
