// The view writer's link.clicked side on SQLite, on the writer's own connection: each batch's counts are added in
// the batch's transaction (`add`, called by the view store), and a window closes in one transaction.
import type { Database } from "bun:sqlite";
import type { ClickOutbox, ClickTally, CountedLink, StoredClickCount } from "../ports.ts";

/** One SQLite process writes views: its counts are slot 0, as its view batches are. */
const SLOT = 0;

export function sqliteClickOutbox(sqlite: Database): ClickOutbox & { add(tally: ClickTally): void } {
  const addCount = sqlite.query(
    `INSERT INTO webhook_click_counts (slot, link_id, user_id, bucket, n, since) VALUES (${SLOT}, ?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (slot, link_id, bucket) DO UPDATE SET n = n + excluded.n`,
  );
  const takeCounts = sqlite.query<StoredClickCount, []>(
    `DELETE FROM webhook_click_counts WHERE slot = ${SLOT} RETURNING link_id AS linkId, user_id AS userId, bucket, n, since`,
  );
  const linksOf = sqlite.query<{ id: number } & CountedLink, [string]>(
    "SELECT id, link_slug AS slug, workspace_id AS workspaceId FROM links WHERE id IN (SELECT value FROM json_each(?1))",
  );
  const insert = sqlite.query(
    `INSERT INTO webhook_deliveries (endpoint_id, user_id, workspace_id, event_id, type, payload, status, attempts, next_attempt_at, created_at)
     SELECT id, user_id, workspace_id, ?2, ?3, ?4, 'pending', 0, ?5, ?5 FROM webhook_endpoints WHERE workspace_id = ?1 AND enabled = 1 AND events LIKE ?6`,
  );
  const closeWindow = sqlite.transaction((toEvents: Parameters<ClickOutbox["closeWindow"]>[0]) => {
    const counts = takeCounts.all();
    if (counts.length === 0) return;
    const links = new Map(
      linksOf
        .all(JSON.stringify([...new Set(counts.map((count) => count.linkId))]))
        .map(({ id, slug, workspaceId }) => [id, { slug, workspaceId }]),
    );
    for (const e of toEvents(counts, links))
      insert.run(e.workspaceId, e.eventId, e.type, e.payload, e.at, `%"${e.type}"%`);
  });
  return {
    subscribers: async (type) =>
      new Set(
        sqlite
          .query<{ userId: number }, [string]>(
            `SELECT DISTINCT m.user_id AS userId FROM webhook_endpoints e JOIN workspace_members m ON m.workspace_id = e.workspace_id
             WHERE e.enabled = 1 AND e.events LIKE ?1`,
          )
          .all(`%"${type}"%`)
          .map((row) => row.userId),
      ),
    add: (tally) => {
      for (let i = 0; i < tally.linkId.length; i++)
        addCount.run(tally.linkId[i]!, tally.userId[i]!, tally.bucket[i]!, tally.n[i]!, tally.since);
    },
    closeWindow: async (toEvents) => closeWindow.immediate(toEvents),
  };
}
