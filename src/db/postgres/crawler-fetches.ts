// The PostgreSQL side of the crawler fetch record (views/crawler-fetches.ts shapes a batch into its rows): a CTE of
// the batch's one statement (view-statements.ts), so it commits with the views or not at all, and a batch stored
// already adds nothing; the trim runs after it, when views/crawler-fetches.ts's schedule says (deleting what is past
// the bounds twice changes nothing).
import type { SQL } from "bun";
import { FETCHES_PER_LINK, type CrawlerFetchRow } from "../crawler-fetch-rows.ts";

/** The batch's fetches, added when the batch is new (`batch`, a CTE of the statement, returns a row). */
export function crawlerFetchesCte(sql: SQL, rows: CrawlerFetchRow[]) {
  const a = sql.array.bind(sql);
  const col = <K extends keyof CrawlerFetchRow>(key: K) => rows.map((r) => r[key]);
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
