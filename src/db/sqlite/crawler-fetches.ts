// The SQLite statements of the crawler fetch record and its counts by verification (views/crawler-fetches.ts
// shapes a batch into their rows): run by the view writer in the batch's transaction. The writer's connection has
// foreign keys off, so a fetch of a link deleted meanwhile is dropped here (the EXISTS), as its views are.
import type { Database } from "bun:sqlite";
import {
  FETCHES_PER_LINK,
  FETCH_RECORD_MS,
  type CrawlerFetchCount,
  type CrawlerFetchRow,
} from "../crawler-fetch-rows.ts";

/** Stores a batch's fetches and counts, then trims the record of the links fetched (and of any past 90 days). */
export function prepareCrawlerFetches(
  sqlite: Database,
): (rows: CrawlerFetchRow[], counts: CrawlerFetchCount[]) => void {
  const insert = sqlite.query<unknown, [number, number, string, string, number, string | null, number, number, number]>(
    `INSERT INTO crawler_fetches (link_id, at, platform, verification, version, rendition, status, bytes, ms)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE EXISTS (SELECT 1 FROM links WHERE id = ?1)`,
  );
  const count = sqlite.query<unknown, [number, string, string, number, number, number]>(
    `INSERT INTO crawler_fetch_counts (link_id, day, platform, verified, unverified, unverifiable)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM links WHERE id = ?1)
     ON CONFLICT (link_id, day, platform) DO UPDATE SET verified = verified + excluded.verified,
       unverified = unverified + excluded.unverified, unverifiable = unverifiable + excluded.unverifiable`,
  );
  const trimLink = sqlite.query<unknown, [number]>(
    `DELETE FROM crawler_fetches WHERE link_id = ?1 AND id <= (
       SELECT id FROM crawler_fetches WHERE link_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ${FETCHES_PER_LINK})`,
  );
  const trimOld = sqlite.query<unknown, [number]>("DELETE FROM crawler_fetches WHERE at < ?1");
  return (rows, counts) => {
    if (rows.length === 0) return;
    for (const r of rows)
      insert.run(r.linkId, r.at, r.platform, r.verification, r.version, r.rendition, r.status, r.bytes, r.ms);
    for (const c of counts) count.run(c.linkId, c.day, c.platform, c.verified, c.unverified, c.unverifiable);
    for (const linkId of new Set(rows.map((r) => r.linkId))) trimLink.run(linkId);
    trimOld.run(rows[0]!.at - FETCH_RECORD_MS);
  };
}
