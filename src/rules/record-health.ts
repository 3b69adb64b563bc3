// One health check's outcome, written in one transaction: a pass clears the failures, a failure adds one, and the
// second failure in a row marks the link broken (what the dashboard, the API and the CLI show).
import { eq } from "drizzle-orm";
import type { Database } from "../db/ports.ts";
import { linkRules } from "../db/tables.ts";

export type HealthOutcome = { linkId: number; ok: boolean; httpStatus: number | null; finalUrl: string | null; at: Date };

/** Failures in a row that make a link broken: one may be a blip. */
export const FAILURES_TO_BREAK = 2;

/** Records the outcome; true when this one marked the link broken (it was not before). */
export async function recordHealth(database: Database, outcome: HealthOutcome): Promise<boolean> {
  return database.transaction(async (tx) => {
    const [row] = await tx.select({ status: linkRules.healthStatus, failures: linkRules.healthFailures }).from(linkRules).where(eq(linkRules.linkId, outcome.linkId));
    const failures = outcome.ok ? 0 : (row?.failures ?? 0) + 1;
    const wasBroken = row?.status === "broken";
    const status = outcome.ok ? "ok" : failures >= FAILURES_TO_BREAK ? "broken" : (row?.status ?? "unchecked");
    const health = { healthStatus: status, healthFailures: failures, healthCheckedAt: outcome.at, healthHttpStatus: outcome.httpStatus, healthFinalUrl: outcome.finalUrl };
    await tx
      .insert(linkRules)
      .values({ linkId: outcome.linkId, ...health })
      .onConflictDoUpdate({ target: linkRules.linkId, set: health });
    const becameBroken = status === "broken" && !wasBroken;
    // Where the link.broken webhook event belongs: recorded here, in this transaction, when becameBroken.
    return becameBroken;
  });
}
