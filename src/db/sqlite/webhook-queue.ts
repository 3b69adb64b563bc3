// The webhook outbox's claims on SQLite: one process, and the claim runs in a write transaction, so a
// delivery is claimed once. The window function takes the oldest few of each endpoint (src/webhooks/deliverer.ts).
import type { Database } from "bun:sqlite";
import type { ClaimedDelivery, WebhookQueue } from "../ports.ts";

const CLAIM_SQL = `SELECT id, endpointId, eventId, payload, attempts, url, secret, previousSecret, previousSecretUntil, failingSince FROM (
    SELECT d.id, d.endpoint_id AS endpointId, d.event_id AS eventId, d.payload, d.attempts, d.next_attempt_at AS due, e.url,
      e.secret, e.previous_secret AS previousSecret, e.previous_secret_until AS previousSecretUntil, e.failing_since AS failingSince,
      row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS n
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled = 1 AND e.paused = 0
    WHERE d.status = 'pending' AND d.next_attempt_at <= ?1 AND d.endpoint_id NOT IN (SELECT value FROM json_each(?4)))
  WHERE n <= ?3 ORDER BY due, id LIMIT ?2`;

export function sqliteWebhookQueue(
  sqlite: Database,
  inTransaction: <T>(body: () => Promise<T>) => Promise<T>,
): WebhookQueue {
  return {
    claimDue: (now, leaseMs, { limit, perEndpoint, skip }) =>
      inTransaction(async () => {
        const due = sqlite
          .query<ClaimedDelivery, [number, number, number, string]>(CLAIM_SQL)
          .all(now, limit, perEndpoint, JSON.stringify(skip));
        const lease = sqlite.query<unknown, [number, number]>(
          "UPDATE webhook_deliveries SET next_attempt_at = ?2 WHERE id = ?1",
        );
        for (const delivery of due) lease.run(delivery.id, now + leaseMs);
        return due;
      }),
  };
}
