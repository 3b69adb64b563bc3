// The webhook outbox's claims on PostgreSQL: several nodes claim at once; SKIP LOCKED hands each due delivery
// to one of them, and the lease (next_attempt_at moved on) keeps it theirs after the claim commits.
import type { SQL } from "bun";
import type { ClaimedDelivery, WebhookQueue } from "../ports.ts";

const CLAIM_SQL = `WITH due AS (
    SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1 ORDER BY d.next_attempt_at LIMIT $3
    FOR UPDATE OF d SKIP LOCKED)
  UPDATE webhook_deliveries d SET next_attempt_at = $1 + $2 FROM due, webhook_endpoints e
  WHERE d.id = due.id AND e.id = d.endpoint_id
  RETURNING d.id, d.endpoint_id AS "endpointId", d.event_id AS "eventId", d.payload, d.attempts, e.url, e.secret,
    e.previous_secret AS "previousSecret", e.previous_secret_until AS "previousSecretUntil", e.failing_since AS "failingSince"`;

export function postgresWebhookQueue(client: SQL): WebhookQueue {
  return {
    claimDue: async (now, leaseMs, limit) => {
      const rows = (await client.unsafe(CLAIM_SQL, [now, leaseMs, limit])) as ClaimedDelivery[];
      // bigint columns arrive as strings.
      const num = (value: unknown) => (value === null ? null : Number(value));
      return rows.map((row) => ({ ...row, previousSecretUntil: num(row.previousSecretUntil), failingSince: num(row.failingSince) }));
    },
  };
}
