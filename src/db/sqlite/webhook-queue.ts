// The webhook outbox's claims on SQLite: one process, and the claim runs in a write transaction, so a
// delivery is claimed once.
import type { Database } from "bun:sqlite";
import type { ClaimedDelivery, WebhookQueue } from "../ports.ts";

const CLAIMED_COLUMNS = `d.id, d.endpoint_id AS endpointId, d.event_id AS eventId, d.payload, d.attempts, e.url, e.secret,
  e.previous_secret AS previousSecret, e.previous_secret_until AS previousSecretUntil, e.failing_since AS failingSince`;

export function sqliteWebhookQueue(sqlite: Database, inTransaction: <T>(body: () => Promise<T>) => Promise<T>): WebhookQueue {
  return {
    claimDue: (now, leaseMs, limit) =>
      inTransaction(async () => {
        const due = sqlite
          .query<ClaimedDelivery, [number, number]>(
            `SELECT ${CLAIMED_COLUMNS} FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled = 1
             WHERE d.status = 'pending' AND d.next_attempt_at <= ?1 ORDER BY d.next_attempt_at LIMIT ?2`,
          )
          .all(now, limit);
        const lease = sqlite.query<unknown, [number, number]>("UPDATE webhook_deliveries SET next_attempt_at = ?2 WHERE id = ?1");
        for (const delivery of due) lease.run(delivery.id, now + leaseMs);
        return due;
      }),
  };
}
