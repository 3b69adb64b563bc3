// The SQLite statements of the crawler fetch record (views/crawler-fetches.ts shapes a batch into its rows): run by
// the view writer in the batch's transaction, one statement for the batch's rows (a JSON array: one parameter
// whatever the batch's size). The writer's connection has foreign keys
// off, so a fetch of a link deleted meanwhile is dropped here (the EXISTS), as its views are.
import type { Database } from "bun:sqlite";
import { FETCHES_PER_LINK, type CrawlerFetchRow } from "../crawler-fetch-rows.ts";

/**
 * Stores a batch's fetches (`store`), and trims the record (`trim`): the given links back to their last
 * FETCHES_PER_LINK, and every fetch older than `before`.
 */
export function prepareCrawlerFetches(sqlite: Database): {
  store: (rows: CrawlerFetchRow[]) => void;
  trim: (linkIds: number[], before: number | null) => void;
} {
  const insert = sqlite.query<unknown, [string]>(
    `INSERT INTO crawler_fetches (link_id, at, platform, verification, version, rendition, status, bytes, ms)
     SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6,
            j.value ->> 7, j.value ->> 8
     FROM json_each(?1) AS j WHERE EXISTS (SELECT 1 FROM links WHERE id = j.value ->> 0)`,
  );
  const trimLink = sqlite.query<unknown, [number]>(
    `DELETE FROM crawler_fetches WHERE link_id = ?1 AND id <= (
       SELECT id FROM crawler_fetches WHERE link_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ${FETCHES_PER_LINK})`,
  );
  const trimOld = sqlite.query<unknown, [number]>("DELETE FROM crawler_fetches WHERE at < ?1");
  return {
    store: (rows) => {
      if (rows.length === 0) return;
      insert.run(
        JSON.stringify(
          rows.map((r) => [
            r.linkId,
            r.at,
            r.platform,
            r.verification,
            r.version,
            r.rendition,
            r.status,
            r.bytes,
            r.ms,
          ]),
        ),
      );
    },
    trim: (linkIds, before) => {
      for (const linkId of linkIds) trimLink.run(linkId);
      if (before !== null) trimOld.run(before);
    },
  };
}
