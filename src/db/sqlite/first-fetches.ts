// The SQLite statements of preview.fetched (views/first-fetches.ts decides and words the events): in the view
// writer's batch transaction, a platform's first fetch of a link version is recorded and announced together.
import type { Database } from "bun:sqlite";
import type { Announcement, FirstFetch } from "../crawler-fetch-rows.ts";

/**
 * `add`: records a first fetch; the link's slug when it is new, null when it was recorded already (or the link is
 * gone). `announce`: one delivery per enabled endpoint of the link's owner subscribed to the event's type.
 */
export function prepareFirstFetches(sqlite: Database): {
  add: (first: FirstFetch) => string | null;
  announce: (announcement: Announcement) => void;
} {
  const add = sqlite.query<{ slug: string }, [number, number, string, number]>(
    `INSERT INTO crawler_first_fetches (link_id, version, platform, at)
     SELECT id, ?2, ?3, ?4 FROM links WHERE id = ?1
     ON CONFLICT DO NOTHING RETURNING (SELECT link_slug FROM links WHERE id = ?1) AS slug`,
  );
  const announce = sqlite.query<unknown, [number, string, string, string, number]>(
    `INSERT INTO webhook_deliveries (endpoint_id, user_id, event_id, type, payload, status, attempts, next_attempt_at, created_at)
     SELECT e.id, e.user_id, ?2, ?3, ?4, 'pending', 0, ?5, ?5 FROM webhook_endpoints e JOIN links l ON l.user_id = e.user_id
     WHERE l.id = ?1 AND e.enabled = 1 AND e.events LIKE '%"' || ?3 || '"%'`,
  );
  return {
    add: (first) => add.get(first.linkId, first.version, first.platform, first.at)?.slug ?? null,
    announce: (a) => announce.run(a.linkId, a.eventId, a.type, a.payload, a.at),
  };
}
