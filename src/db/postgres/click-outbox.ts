// The view writer's link.clicked side on PostgreSQL, on the writer's own connection: each batch's counts are added
// in the batch's statement (view-statements.ts), and this node's window (its slot's counts) closes in one transaction.
import type { SQL } from "bun";
import type { ClickOutbox, StoredClickCount } from "../ports.ts";

export function postgresClickOutbox(sql: SQL, slot: number): ClickOutbox {
  return {
    subscribers: async (type) =>
      new Set(
        (
          (await sql`SELECT DISTINCT m.user_id FROM webhook_endpoints e JOIN workspace_members m ON m.workspace_id = e.workspace_id
            WHERE e.enabled AND e.events LIKE ${`%"${type}"%`}`) as Array<{
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
          (await tx`SELECT id, link_slug, workspace_id FROM links WHERE id = ANY(${sql.array(linkIds, "INT4")}::int[])`) as Array<{
            id: number;
            link_slug: string;
            workspace_id: number;
          }>;
        const links = new Map(rows.map((row) => [row.id, { slug: row.link_slug, workspaceId: row.workspace_id }]));
        for (const e of toEvents(counts, links)) {
          await tx`INSERT INTO webhook_deliveries (endpoint_id, user_id, workspace_id, event_id, type, payload, status, attempts, next_attempt_at, created_at)
            SELECT id, user_id, workspace_id, ${e.eventId}, ${e.type}, ${e.payload}, 'pending', 0, ${e.at}, ${e.at} FROM webhook_endpoints
            WHERE workspace_id = ${e.workspaceId} AND enabled AND events LIKE ${`%"${e.type}"%`}`;
        }
      });
    },
  };
}
