// Every hour, on one node of the cluster at a time (the job "domain-recheck" in src/compose/server-jobs.ts): the
// domains checked longest ago (pending ones included, so an owner who published the records need not press "Check
// now"; invalid ones too, so fixed records bring them back).
// Pending claims older than PENDING_CLAIM_MS are let go first: no one holds a name they have not proven.
import { and, asc, eq, lt, sql } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { DomainDeps } from "./deps.ts";
import { PENDING_CLAIM_MS } from "./model.ts";
import { verifyDomain } from "./verify.ts";

export const RECHECK_EVERY_MS = 3_600_000;
/** Checked per run, oldest check first (DNS answers in milliseconds; this bounds a run at a few minutes). */
const PER_RUN = 500;

export async function recheckDomains(deps: DomainDeps): Promise<number> {
  const { domains } = tablesOf(deps.database.db);
  // Links placed on an expired claim go back to the service address (links.domain_id is set null).
  await deps.database.db
    .delete(domains)
    .where(and(eq(domains.status, "pending"), lt(domains.createdAt, new Date(deps.clock.now() - PENDING_CLAIM_MS))));
  const due = await deps.database.db
    .select()
    .from(domains)
    .orderBy(sql`${domains.lastCheckedAt} is not null`, asc(domains.lastCheckedAt))
    .limit(PER_RUN);
  for (const domain of due) await verifyDomain(deps, domain);
  return due.length;
}
