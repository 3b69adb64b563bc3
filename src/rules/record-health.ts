// One health check's outcome, written in one transaction: a pass clears the failures, a failure adds one, and the
// second failure in a row marks the link broken (what the dashboard, the API and the CLI show) and records
// link.broken for the owner's webhooks.
import { eq } from "drizzle-orm";
import type { Database } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { linkRef, liveLinkFacts } from "../webhooks/link-events.ts";
import { recordEvent } from "../webhooks/record-event.ts";

/** `checkedUrl`: the target this outcome is about, the link's own or a rule's (a failing one, if any failed). */
export type HealthOutcome = {
  linkId: number;
  ok: boolean;
  checkedUrl: string;
  httpStatus: number | null;
  finalUrl: string | null;
  at: Date;
};

/** Failures in a row that make a link broken: one may be a blip. */
export const FAILURES_TO_BREAK = 2;

/** What a failed check shows as link.broken's reason. */
const failureReason = (outcome: HealthOutcome) =>
  outcome.httpStatus === null ? "No answer" : `HTTP ${outcome.httpStatus}`;

/** Records the outcome; true when this one marked the link broken (it was not before). `publicUrl`: PUBLIC_URL. */
export async function recordHealth(
  deps: { database: Database; publicUrl: string },
  outcome: HealthOutcome,
): Promise<boolean> {
  const { linkRules } = tablesOf(deps.database.db);
  return deps.database.transaction(async (tx) => {
    const [row] = await tx
      .select({ status: linkRules.healthStatus, failures: linkRules.healthFailures })
      .from(linkRules)
      .where(eq(linkRules.linkId, outcome.linkId));
    const failures = outcome.ok ? 0 : (row?.failures ?? 0) + 1;
    const wasBroken = row?.status === "broken";
    const status = outcome.ok ? "ok" : failures >= FAILURES_TO_BREAK ? "broken" : (row?.status ?? "unchecked");
    const health = {
      healthStatus: status,
      healthFailures: failures,
      healthCheckedAt: outcome.at,
      healthHttpStatus: outcome.httpStatus,
      healthFinalUrl: outcome.finalUrl,
      healthFailedUrl: outcome.ok ? null : outcome.checkedUrl,
    };
    await tx
      .insert(linkRules)
      .values({ linkId: outcome.linkId, ...health })
      .onConflictDoUpdate({ target: linkRules.linkId, set: health });
    const becameBroken = status === "broken" && !wasBroken;
    const [link] = becameBroken ? await liveLinkFacts(tx, [outcome.linkId]) : [];
    if (link) {
      const data = {
        ...linkRef(deps.publicUrl, link.userSlug, link, link.domain),
        targetUrl: link.targetUrl,
        failedUrl: outcome.checkedUrl,
        reason: failureReason(outcome),
      };
      await recordEvent(tx, { workspaceId: link.workspaceId, type: "link.broken", data, at: outcome.at.getTime() });
    }
    return becameBroken;
  });
}
