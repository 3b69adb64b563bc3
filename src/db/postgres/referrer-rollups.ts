// The PostgreSQL part of the referrer rollups (views/referrer-counts.ts shapes a batch into its rows): a
// common table expression of the view writer's batch statement (postgres/view-statements.ts), so the counts
// commit with the raw rows or not at all, and only when the batch is new (its `batch` expression).
import type { SQL } from "bun";
import { NO_REFERRER, OTHER_REFERRERS, REFERRER_HOSTS_PER_DAY, type ReferrerCount } from "../referrer-buckets.ts";

/**
 * `referrers AS (INSERT …)`: adds the counts in key order (one lock order on every node). A host new to a link's
 * day takes one of the day's REFERRER_HOSTS_PER_DAY places if one is free (the batch's busiest new hosts first),
 * or counts under OTHER_REFERRERS. Two nodes adding new hosts to the same day at once can each take the same
 * free places: the cap is exact on one node, and a few hosts over with several.
 */
export function referrerRollupsCte(sql: SQL, rows: ReferrerCount[]) {
  const a = sql.array.bind(sql);
  return sql`referrers AS (
      INSERT INTO referrer_rollups (link_id, day, host, human)
      SELECT link_id, day, CASE WHEN bucket OR known OR held + place <= ${REFERRER_HOSTS_PER_DAY} THEN host ELSE ${OTHER_REFERRERS} END AS capped, sum(human)::int
      FROM (
        SELECT *, row_number() OVER (PARTITION BY link_id, day, bucket OR known ORDER BY human DESC, host) AS place
        FROM (
          SELECT r.link_id, r.day, r.host, r.human, r.host IN (${NO_REFERRER}, ${OTHER_REFERRERS}) AS bucket,
                 EXISTS (SELECT 1 FROM referrer_rollups x WHERE x.link_id = r.link_id AND x.day = r.day AND x.host = r.host) AS known,
                 (SELECT count(*) FROM referrer_rollups x WHERE x.link_id = r.link_id AND x.day = r.day AND x.host NOT IN (${NO_REFERRER}, ${OTHER_REFERRERS})) AS held
          FROM unnest(${a(
            rows.map((r) => r.linkId),
            "INT",
          )}::int[], ${a(
            rows.map((r) => r.day),
            "TEXT",
          )}::text[],
                      ${a(
                        rows.map((r) => r.host),
                        "TEXT",
                      )}::text[], ${a(
                        rows.map((r) => r.human),
                        "INT",
                      )}::int[]) AS r(link_id, day, host, human)
          WHERE EXISTS (SELECT 1 FROM links WHERE links.id = r.link_id) AND EXISTS (SELECT 1 FROM batch)
        ) counted
      ) ranked
      GROUP BY link_id, day, capped
      ORDER BY link_id, day, capped
      ON CONFLICT (link_id, day, host) DO UPDATE SET human = referrer_rollups.human + excluded.human
      RETURNING 1
    )`;
}
