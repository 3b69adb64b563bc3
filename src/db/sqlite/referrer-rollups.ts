// The SQLite statements of the referrer rollups (views/referrer-counts.ts shapes a batch into its rows): run by
// the view writer when it folds its pending counts into the rollups, in the fold's transaction; the rows a crash
// left beyond the fold's mark are counted again from the stored views (`storedReferrers`), as the other rollups are.
import type { Database } from "bun:sqlite";
import { NO_REFERRER, OTHER_REFERRERS, REFERRER_HOSTS_PER_DAY, type ReferrerCount } from "../referrer-buckets.ts";

/**
 * Adds a batch's referrer counts; a host new to a link's day past REFERRER_HOSTS_PER_DAY counts under
 * OTHER_REFERRERS. Views of a link deleted meanwhile are dropped (the writer's connection has foreign keys off).
 */
export function prepareReferrerRollups(sqlite: Database): (rows: ReferrerCount[]) => void {
  const add = sqlite.query<unknown, [number, string, string, number]>(
    `INSERT INTO referrer_rollups (link_id, day, host, human)
     SELECT ?1, ?2, CASE WHEN ?3 IN ('${NO_REFERRER}', '${OTHER_REFERRERS}')
                          OR EXISTS (SELECT 1 FROM referrer_rollups WHERE link_id = ?1 AND day = ?2 AND host = ?3)
                          OR (SELECT count(*) FROM referrer_rollups WHERE link_id = ?1 AND day = ?2 AND host NOT IN ('${NO_REFERRER}', '${OTHER_REFERRERS}')) < ${REFERRER_HOSTS_PER_DAY}
                     THEN ?3 ELSE '${OTHER_REFERRERS}' END, ?4
     WHERE EXISTS (SELECT 1 FROM links WHERE id = ?1)
     ON CONFLICT (link_id, day, host) DO UPDATE SET human = human + excluded.human`,
  );
  // Within a link's day, the batch's busiest hosts take the free places first.
  const busiestFirst = (x: ReferrerCount, y: ReferrerCount) =>
    x.linkId - y.linkId || (x.day < y.day ? -1 : x.day > y.day ? 1 : 0) || y.human - x.human;
  return (rows) => {
    for (const row of rows.toSorted(busiestFirst)) add.run(row.linkId, row.day, row.host, row.human);
  };
}

/** People per link, day and referrer (as stored) in the views with ids in (`after`, `upTo`]. */
export function prepareStoredReferrers(
  sqlite: Database,
): (after: number, upTo: number) => { linkId: number; day: string; referrer: string | null; human: number }[] {
  const stored = sqlite.query<
    { linkId: number; day: string; referrer: string | null; human: number },
    [number, number]
  >(
    `SELECT link_id AS linkId, strftime('%Y-%m-%d', timestamp / 1000, 'unixepoch') AS day, attribution AS referrer, count(*) AS human
     FROM views WHERE id > ?1 AND id <= ?2 AND is_bot = 0 GROUP BY 1, 2, 3`,
  );
  return (after, upTo) => stored.all(after, upTo);
}
