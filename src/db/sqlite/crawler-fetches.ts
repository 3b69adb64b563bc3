// The SQLite statements of the crawler fetch record (views/crawler-fetches.ts shapes a batch into its rows), run by
// the view writer: each batch's rows are queued in its transaction (into a table without index: an append), and
// each rollup fold moves the queue into the record in link order, so that the per-link index is written page by
// page once a fold rather than at random every batch. The writer's connection has foreign keys off, so a fetch of
// a link deleted meanwhile is dropped at the move (the EXISTS), as its views are.
import type { Database } from "bun:sqlite";
import { FETCHES_PER_LINK, type CrawlerFetchRow } from "../crawler-fetch-rows.ts";

const COLUMNS = "link_id, at, platform, verification, version, rendition, status, bytes, ms";

/**
 * Queues a batch's fetches (`store`), moves the queue into the record (`move`), and trims the record (`trim`): the
 * given links back to their last FETCHES_PER_LINK, and every fetch older than `before`.
 */
export function prepareCrawlerFetches(sqlite: Database): {
  store: (rows: CrawlerFetchRow[]) => void;
  move: () => void;
  trim: (linkIds: number[], before: number | null) => void;
} {
  const queue = sqlite.query<unknown, [number, number, string, string, number, string | null, number, number, number]>(
    `INSERT INTO crawler_fetch_queue (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const moveQueue = sqlite.query(
    `INSERT INTO crawler_fetches (${COLUMNS}) SELECT ${COLUMNS} FROM crawler_fetch_queue q
     WHERE EXISTS (SELECT 1 FROM links WHERE id = q.link_id) ORDER BY link_id, id`,
  );
  const emptyQueue = sqlite.query("DELETE FROM crawler_fetch_queue");
  const trimLink = sqlite.query<unknown, [number]>(
    `DELETE FROM crawler_fetches WHERE link_id = ?1 AND id <= (
       SELECT id FROM crawler_fetches WHERE link_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ${FETCHES_PER_LINK})`,
  );
  const trimOld = sqlite.query<unknown, [number]>("DELETE FROM crawler_fetches WHERE at < ?1");
  return {
    store: (rows) => {
      for (const r of rows)
        queue.run(r.linkId, r.at, r.platform, r.verification, r.version, r.rendition, r.status, r.bytes, r.ms);
    },
    move: () => {
      moveQueue.run();
      emptyQueue.run();
    },
    trim: (linkIds, before) => {
      for (const linkId of linkIds) trimLink.run(linkId);
      if (before !== null) trimOld.run(before);
    },
  };
}
