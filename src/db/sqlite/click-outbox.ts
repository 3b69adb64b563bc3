// The view writer's link.clicked events on SQLite: on the writer's own connection, one transaction per window.
import type { Database } from "bun:sqlite";
import type { ClickOutbox } from "../ports.ts";

export function sqliteClickOutbox(sqlite: Database): ClickOutbox {
  const insert = sqlite.query(
    `INSERT INTO webhook_deliveries (endpoint_id, user_id, event_id, type, payload, status, attempts, next_attempt_at, created_at)
     SELECT id, user_id, ?2, ?3, ?4, 'pending', 0, ?5, ?5 FROM webhook_endpoints WHERE user_id = ?1 AND enabled = 1 AND events LIKE ?6`,
  );
  const record = sqlite.transaction((events: Parameters<ClickOutbox["record"]>[0]) => {
    for (const e of events) insert.run(e.userId, e.eventId, e.type, e.payload, e.at, `%"${e.type}"%`);
  });
  return {
    subscribers: async (type) =>
      new Set(sqlite.query<{ userId: number }, [string]>("SELECT DISTINCT user_id AS userId FROM webhook_endpoints WHERE enabled = 1 AND events LIKE ?1").all(`%"${type}"%`).map((row) => row.userId)),
    linkSlugs: async (linkIds) =>
      new Map(sqlite.query<{ id: number; slug: string }, [string]>("SELECT id, link_slug AS slug FROM links WHERE id IN (SELECT value FROM json_each(?1))").all(JSON.stringify(linkIds)).map((row) => [row.id, row.slug])),
    record: async (events) => record.immediate(events),
  };
}
