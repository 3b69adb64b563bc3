// The webhook outbox's claims on PostgreSQL: several nodes claim at once; SKIP LOCKED hands each due delivery
// to one of them, and the lease (next_attempt_at moved on) keeps it theirs after the claim commits. The window
// function takes the oldest few of each endpoint (src/webhooks/deliverer.ts); the locking step checks the row
// again, so a delivery another node claimed meanwhile is left to it.
import type { SQL } from "bun";
import type { ClaimedDelivery, WebhookQueue } from "../ports.ts";

const CLAIM_SQL = `WITH ranked AS (
    SELECT d.id, d.next_attempt_at, row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS n
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled AND NOT e.paused
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1 AND d.endpoint_id <> ALL (string_to_array($5, ',')::int[])),
  due AS (
    SELECT d.id FROM webhook_deliveries d JOIN ranked r ON r.id = d.id
    WHERE r.n <= $4 AND d.status = 'pending' AND d.next_attempt_at <= $1 ORDER BY r.next_attempt_at, r.id LIMIT $3
    FOR UPDATE OF d SKIP LOCKED)
  UPDATE webhook_deliveries d SET next_attempt_at = $1 + $2 FROM due, webhook_endpoints e
  WHERE d.id = due.id AND e.id = d.endpoint_id
  RETURNING d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.payload, d.attempts, e.url, e.secret,
    e.previous_secret AS "previousSecret", e.previous_secret_until AS "previousSecretUntil", e.failing_since AS "failingSince"`;

export function postgresWebhookQueue(client: SQL): WebhookQueue {
  return {
    claimDue: async (now, leaseMs, { limit, perEndpoint, skip }) => {
      const rows = (await client.unsafe(CLAIM_SQL, [
        now,
        leaseMs,
        limit,
        perEndpoint,
        skip.join(","),
      ])) as ClaimedDelivery[];
      // bigint columns arrive as strings.
      const num = (value: unknown) => (value === null ? null : Number(value));
      return rows.map((row) => ({
        ...row,
        previousSecretUntil: num(row.previousSecretUntil),
        failingSince: num(row.failingSince),
      }));
    },
  };
}
