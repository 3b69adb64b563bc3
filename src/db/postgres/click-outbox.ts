// The view writer's link.clicked events on PostgreSQL: on the writer's own connection, one transaction per window.
import type { SQL } from "bun";
import type { ClickOutbox } from "../ports.ts";

export function postgresClickOutbox(sql: SQL): ClickOutbox {
  return {
    subscribers: async (type) =>
      new Set(((await sql`SELECT DISTINCT user_id FROM webhook_endpoints WHERE enabled AND events LIKE ${`%"${type}"%`}`) as Array<{ user_id: number }>).map((row) => row.user_id)),
    linkSlugs: async (linkIds) =>
      new Map(((await sql`SELECT id, link_slug FROM links WHERE id = ANY(${sql.array(linkIds, "INT4")}::int[])`) as Array<{ id: number; link_slug: string }>).map((row) => [row.id, row.link_slug])),
    record: async (events) => {
      await sql.begin(async (tx) => {
        for (const e of events) {
          await tx`INSERT INTO webhook_deliveries (endpoint_id, user_id, event_id, type, payload, status, attempts, next_attempt_at, created_at)
            SELECT id, user_id, ${e.eventId}, ${e.type}, ${e.payload}, 'pending', 0, ${e.at}, ${e.at} FROM webhook_endpoints
            WHERE user_id = ${e.userId} AND enabled AND events LIKE ${`%"${e.type}"%`}`;
        }
      });
    },
  };
}
