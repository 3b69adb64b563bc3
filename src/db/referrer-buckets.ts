// The referrer rollups' buckets and cap, shared by the writer's counting (views/referrer-counts.ts), each
// engine's statement (sqlite/referrer-rollups.ts, postgres/referrer-rollups.ts) and the statistics page.

/** Hosts a link keeps a day; later hosts that day count under OTHER_REFERRERS. */
export const REFERRER_HOSTS_PER_DAY = 50;
/** Views without a referrer (typed or pasted addresses, apps, privacy settings). */
export const NO_REFERRER = "";
/** The hosts past a day's cap, and referrers that are not host names. */
export const OTHER_REFERRERS = "*";

/** People of one link, day and bucket. */
export type ReferrerCount = { linkId: number; day: string; host: string; human: number };
