// The bound on what waits for one endpoint (WEBHOOK_MAX_PENDING): an endpoint that hangs, is paused or is flooded
// with test events keeps its oldest pending deliveries; the newer ones past the bound are marked failed with the
// reason, shown in its deliveries list (and resendable), so the outbox cannot grow without end (docs/decisions/0045).
import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export const backlogReason = (maxPending: number) =>
  `Not sent: ${maxPending} deliveries were already waiting for this endpoint. Resend it once they are done.`;

/** Marks the pending deliveries past each endpoint's first `maxPending` failed; how many. */
export async function trimBacklogs(db: Db, maxPending: number, now: number): Promise<number> {
  const { webhookDeliveries } = tablesOf(db);
  const d = webhookDeliveries;
  // Only endpoints over the bound are ranked: usually none, and the count reads the pending rows once.
  const over = db
    .select({ endpointId: d.endpointId })
    .from(d)
    .where(eq(d.status, "pending"))
    .groupBy(d.endpointId)
    .having(gt(sql`count(*)`, maxPending));
  const ranked = db
    .select({ id: d.id, n: sql<number>`row_number() over (partition by ${d.endpointId} order by ${d.id})`.as("n") })
    .from(d)
    .where(and(eq(d.status, "pending"), inArray(d.endpointId, over)))
    .as("ranked");
  const trimmed = await db
    .update(d)
    .set({
      status: "failed",
      lastStatusCode: null,
      lastDurationMs: null,
      lastResponse: backlogReason(maxPending),
      nextAttemptAt: now,
    })
    .where(inArray(d.id, db.select({ id: ranked.id }).from(ranked).where(gt(ranked.n, maxPending))))
    .returning({ id: d.id });
  return trimmed.length;
}
