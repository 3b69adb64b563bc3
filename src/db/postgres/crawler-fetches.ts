// The PostgreSQL side of the crawler fetch record and its counts by verification (views/crawler-fetches.ts shapes
// a batch into their rows): CTEs of the batch's one statement (view-statements.ts), so they commit with the views
// or not at all, and a batch stored already adds nothing; the trim runs after it, when views/crawler-fetches.ts's
// schedule says (deleting what is past the bounds twice changes nothing).
import type { SQL } from "bun";
import {
  FETCHES_PER_LINK,
  FETCH_RECORD_MS,
  type CrawlerFetchCount,
  type CrawlerFetchRow,
} from "../crawler-fetch-rows.ts";

/** The batch's fetches and counts, added when the batch is new (`batch`, a CTE of the statement, returns a row). */
export function crawlerFetchesCte(sql: SQL, rows: CrawlerFetchRow[], counts: CrawlerFetchCount[]) {
  const a = sql.array.bind(sql);
  const col = <K extends keyof CrawlerFetchRow>(key: K) => rows.map((r) => r[key]);
  const cnt = <K extends keyof CrawlerFetchCount>(key: K) => counts.map((c) => c[key]);
  return sql`crawler_fetched AS (
      INSERT INTO crawler_fetches (link_id, at, platform, verification, version, rendition, status, bytes, ms)
      SELECT f.link_id, to_timestamp(f.at / 1000.0), f.platform, f.verification, f.version, f.rendition, f.status, f.bytes, f.ms
      FROM unnest(${a(col("linkId"), "INT")}::int[], ${a(col("at"), "DOUBLE PRECISION")}::float8[], ${a(col("platform"), "TEXT")}::text[],
                  ${a(col("verification"), "TEXT")}::text[], ${a(col("version"), "INT")}::int[], ${a(col("rendition"), "TEXT")}::text[],
                  ${a(col("status"), "INT")}::int[], ${a(col("bytes"), "INT")}::int[], ${a(col("ms"), "DOUBLE PRECISION")}::float8[])
           WITH ORDINALITY AS f(link_id, at, platform, verification, version, rendition, status, bytes, ms, n)
      WHERE EXISTS (SELECT 1 FROM links WHERE links.id = f.link_id) AND EXISTS (SELECT 1 FROM batch)
      -- Ids in the batch's order: the record is read newest first by id.
      ORDER BY f.n
      RETURNING 1
    ),
    crawler_counted AS (
      INSERT INTO crawler_fetch_counts (link_id, day, platform, verified, unverified, unverifiable)
      SELECT c.link_id, c.day, c.platform, c.verified, c.unverified, c.unverifiable
      FROM unnest(${a(cnt("linkId"), "INT")}::int[], ${a(cnt("day"), "TEXT")}::text[], ${a(cnt("platform"), "TEXT")}::text[],
                  ${a(cnt("verified"), "INT")}::int[], ${a(cnt("unverified"), "INT")}::int[], ${a(cnt("unverifiable"), "INT")}::int[])
           WITH ORDINALITY AS c(link_id, day, platform, verified, unverified, unverifiable, n)
      WHERE EXISTS (SELECT 1 FROM links WHERE links.id = c.link_id) AND EXISTS (SELECT 1 FROM batch)
      ORDER BY c.n
      ON CONFLICT (link_id, day, platform) DO UPDATE SET verified = crawler_fetch_counts.verified + excluded.verified,
        unverified = crawler_fetch_counts.unverified + excluded.unverified,
        unverifiable = crawler_fetch_counts.unverifiable + excluded.unverifiable
      RETURNING 1
    )`;
}

/** Trims the given links' records back to their last FETCHES_PER_LINK, and every fetch older than `before`. */
export async function trimCrawlerFetches(sql: SQL, linkIds: number[], before: number | null): Promise<void> {
  if (linkIds.length > 0)
    await sql`
      DELETE FROM crawler_fetches f USING (
        SELECT l.id AS link_id, (SELECT id FROM crawler_fetches WHERE link_id = l.id ORDER BY id DESC LIMIT 1 OFFSET ${FETCHES_PER_LINK}) AS upto
        FROM unnest(${sql.array(linkIds, "INT")}::int[]) AS l(id)
      ) t
      WHERE f.link_id = t.link_id AND f.id <= t.upto`;
  if (before !== null) await sql`DELETE FROM crawler_fetches WHERE at < to_timestamp(${before} / 1000.0)`;
}
