// A link's top referrer hosts over a range, from the referrer rollups (written by the view writer:
// views/referrer-counts.ts): one grouped read on their (link, day, host) key.
import { and, desc, eq, gte, sql } from "drizzle-orm";
import { NO_REFERRER, OTHER_REFERRERS } from "../db/referrer-buckets.ts";
import { tablesOf } from "../db/tables.ts";
import type { LinkDeps } from "./deps.ts";
import { total } from "./queries.ts";

/** Hosts named on the statistics page; the rest are summed under OTHER_REFERRERS. */
export const TOP_REFERRERS = 10;

export type ReferrerRow = { host: string; human: number };

/**
 * People by referrer host since `since` (YYYY-MM-DD): the TOP_REFERRERS busiest hosts and the views without a
 * referrer (NO_REFERRER), most first, then all other hosts (OTHER_REFERRERS); a bucket only when it has any.
 */
export async function topReferrers(deps: LinkDeps, linkId: number, since: string): Promise<ReferrerRow[]> {
  const { referrerRollups } = tablesOf(deps.database.db);
  const human = total(sql`sum(${referrerRollups.human})`);
  const rows = await deps.database.db
    .select({ host: referrerRollups.host, human })
    .from(referrerRollups)
    .where(and(eq(referrerRollups.linkId, linkId), gte(referrerRollups.day, since)))
    .groupBy(referrerRollups.host)
    .orderBy(desc(human), referrerRollups.host);
  const hosts = rows.filter((row) => row.host !== NO_REFERRER && row.host !== OTHER_REFERRERS);
  const sum = (list: ReferrerRow[]) => list.reduce((n, row) => n + row.human, 0);
  const direct = sum(rows.filter((row) => row.host === NO_REFERRER));
  const other = sum(rows.filter((row) => row.host === OTHER_REFERRERS)) + sum(hosts.slice(TOP_REFERRERS));
  const named = [...hosts.slice(0, TOP_REFERRERS), ...(direct > 0 ? [{ host: NO_REFERRER, human: direct }] : [])];
  return [...named.sort((x, y) => y.human - x.human), ...(other > 0 ? [{ host: OTHER_REFERRERS, human: other }] : [])];
}
