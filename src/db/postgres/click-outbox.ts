// The view writer's link.clicked side on PostgreSQL, on the writer's own connection: each batch's counts are added
// in the batch's statement (view-statements.ts), and this node's window (its slot's counts) closes in one transaction.
import type { SQL } from "bun";
import type { ClickOutbox, StoredClickCount } from "../ports.ts";

export function postgresClickOutbox(sql: SQL, slot: number): ClickOutbox {
  return {
    subscribers: async (type) =>
      new Set(
        (
          (await sql`SELECT DISTINCT user_id FROM webhook_endpoints WHERE enabled AND events LIKE ${`%"${type}"%`}`) as Array<{
            user_id: number;
          }>
        ).map((row) => row.user_id),
      ),
    closeWindow: async (toEvents) => {
      await sql.begin(async (tx) => {
        const counts = (await tx`DELETE FROM webhook_click_counts WHERE slot = ${slot}
          RETURNING link_id AS "linkId", user_id AS "userId", bucket, n, since::float8 AS since`) as StoredClickCount[];
        if (counts.length === 0) return;
        const linkIds = [...new Set(counts.map((count) => count.linkId))];
        const rows =
          (await tx`SELECT id, link_slug FROM links WHERE id = ANY(${sql.array(linkIds, "INT4")}::int[])`) as Array<{
            id: number;
            link_slug: string;
          }>;
        for (const e of toEvents(counts, new Map(rows.map((row) => [row.id, row.link_slug])))) {
          await tx`INSERT INTO webhook_deliveries (endpoint_id, user_id, workspace_id, event_id, type, payload, status, attempts, next_attempt_at, created_at)
            SELECT id, user_id, workspace_id, ${e.eventId}, ${e.type}, ${e.payload}, 'pending', 0, ${e.at}, ${e.at} FROM webhook_endpoints
            WHERE user_id = ${e.userId} AND enabled AND events LIKE ${`%"${e.type}"%`}`;
        }
      });
    },
  };
}
