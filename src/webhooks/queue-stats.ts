// The outbox's state for /metrics: deliveries waiting, and how long the oldest has waited.
import { count, eq, min } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export async function queueStats(db: Db, now: number): Promise<{ pending: number; oldestPendingAgeSeconds: number }> {
  const { webhookDeliveries } = tablesOf(db);
  const [row] = await db
    .select({ pending: count(), oldest: min(webhookDeliveries.createdAt) })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, "pending"));
  const oldest = row?.oldest === null || row?.oldest === undefined ? null : Number(row.oldest);
  return {
    pending: Number(row?.pending ?? 0),
    oldestPendingAgeSeconds: oldest === null ? 0 : Math.max(0, (now - oldest) / 1000),
  };
}
