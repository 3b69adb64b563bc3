// People per link, day and referrer host in a batch of views: what the view writer adds to the referrer rollups
// (db/sqlite/referrer-rollups.ts at its folds, db/postgres/referrer-rollups.ts in each batch's statement). Hosts only
// (the request thread keeps no path or query: go/record-view.ts), lower-case; views without a referrer count under
// NO_REFERRER. A link keeps at most REFERRER_HOSTS_PER_DAY hosts a day, its busiest of each batch first; later
// hosts that day count under OTHER_REFERRERS, so a flood of made-up referrers cannot grow the table.
// On SQLite the writer counts the buckets into its pending rollups as it stores the rows (views/pending-rollups.ts)
// and the fold's statement applies the cap, its busiest new hosts first, as it does for a recount from the stored rows.
import { NO_REFERRER, OTHER_REFERRERS, REFERRER_HOSTS_PER_DAY, type ReferrerCount } from "../db/referrer-buckets.ts";
import type { ViewBatch } from "./view-batch.ts";

/** What a host name (or an IPv4 address) can hold; anything else (IPv6 literals too) counts as another host. */
const HOST = /^[a-z0-9.-]{1,253}$/;
const DAY_MS = 86_400_000;

/** The bucket a referrer host counts under. */
export function referrerBucket(host: string | null): string {
  if (!host) return NO_REFERRER;
  const lower = host.toLowerCase();
  return HOST.test(lower) ? lower : OTHER_REFERRERS;
}

/** Adds `cells` into `into` (keyed by link, day and host). */
export function addReferrerCounts(into: Map<string, ReferrerCount>, cells: Iterable<ReferrerCount>): void {
  for (const cell of cells) {
    const key = `${cell.linkId}\u0000${cell.day}\u0000${cell.host}`;
    const held = into.get(key);
    if (held) held.human += cell.human;
    else into.set(key, { ...cell });
  }
}

/** The bucket of a batch's referrer (a string index, -1 for none), each of its strings bucketed once. */
export function batchReferrerBuckets(b: ViewBatch): (index: number) => string {
  const bucketAt = new Map<number, string>([[-1, NO_REFERRER]]);
  return (index) => {
    let host = bucketAt.get(index);
    if (host === undefined) bucketAt.set(index, (host = referrerBucket(b.strings[index]!)));
    return host;
  };
}

/** One link's cells of one day, by host. */
type LinkDay = Map<string, ReferrerCount>;

/**
 * The batch's people by link, day and referrer bucket, at most REFERRER_HOSTS_PER_DAY hosts per link and day
 * (the rest under OTHER_REFERRERS), sorted by link, day and host: the order every writer locks rows in.
 */
export function countReferrers(b: ViewBatch): ReferrerCount[] {
  const dayNames = new Map<number, string>();
  const days = new Map<number, Map<number, LinkDay>>();
  const bucketOf = batchReferrerBuckets(b);
  for (let i = 0; i < b.size; i++) {
    if (b.isBot[i]) continue;
    const linkId = b.linkId[i]!;
    const dayNumber = Math.floor(b.at[i]! / DAY_MS);
    const host = bucketOf(b.attribution[i]!);
    let links = days.get(dayNumber);
    if (!links) days.set(dayNumber, (links = new Map()));
    let hosts = links.get(linkId);
    if (!hosts) links.set(linkId, (hosts = new Map()));
    const cell = hosts.get(host);
    if (cell) cell.human++;
    else {
      let day = dayNames.get(dayNumber);
      if (day === undefined) dayNames.set(dayNumber, (day = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10)));
      hosts.set(host, { linkId, day, host, human: 1 });
    }
  }
  const groups: { linkId: number; dayNumber: number; hosts: LinkDay }[] = [];
  for (const [dayNumber, links] of days) for (const [linkId, hosts] of links) groups.push({ linkId, dayNumber, hosts });
  groups.sort((x, y) => x.linkId - y.linkId || x.dayNumber - y.dayNumber);
  const kept: ReferrerCount[] = [];
  for (const { hosts } of groups) {
    // Most links have one bucket a day in a batch: nothing to cap or sort.
    if (hosts.size === 1) kept.push(...hosts.values());
    else kept.push(...capped([...hosts.values()]));
  }
  return kept;
}

const byHost = (x: ReferrerCount, y: ReferrerCount) => (x.host < y.host ? -1 : x.host > y.host ? 1 : 0);

/** One link's day: its hosts past the cap, fewest views first, folded into OTHER_REFERRERS; sorted by host. */
function capped(cells: ReferrerCount[]): ReferrerCount[] {
  const kept = cells.filter((cell) => cell.host === NO_REFERRER || cell.host === OTHER_REFERRERS);
  const hosts = cells.filter((cell) => cell.host !== NO_REFERRER && cell.host !== OTHER_REFERRERS);
  if (hosts.length > REFERRER_HOSTS_PER_DAY) {
    hosts.sort((x, y) => y.human - x.human || byHost(x, y));
    let other = kept.find((cell) => cell.host === OTHER_REFERRERS);
    for (const cell of hosts.splice(REFERRER_HOSTS_PER_DAY)) {
      if (other) other.human += cell.human;
      else kept.push((other = { ...cell, host: OTHER_REFERRERS }));
    }
  }
  kept.push(...hosts);
  return kept.sort(byHost);
}
