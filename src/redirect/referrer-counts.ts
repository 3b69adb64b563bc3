// People per link, day and referrer host in a batch of views: what the view writer adds to the referrer rollups
// (db/sqlite/referrer-rollups.ts at its folds, db/postgres/referrer-rollups.ts in each batch's statement). Hosts only
// (the request thread keeps no path or query: redirect/go.ts), lower-case; views without a referrer count under
// NO_REFERRER. A link keeps at most REFERRER_HOSTS_PER_DAY hosts a day, its busiest of each batch first; later
// hosts that day count under OTHER_REFERRERS, so a flood of made-up referrers cannot grow the table.
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

/** Adds `cells` into `into` (keyed by link, day and host): the counts waiting for the view writer's next fold. */
export function addReferrerCounts(into: Map<string, ReferrerCount>, cells: Iterable<ReferrerCount>): void {
  for (const cell of cells) {
    const key = `${cell.linkId}\u0000${cell.day}\u0000${cell.host}`;
    const held = into.get(key);
    if (held) held.human += cell.human;
    else into.set(key, { ...cell });
  }
}

/**
 * The batch's people by link, day and referrer bucket, at most REFERRER_HOSTS_PER_DAY hosts per link and day
 * (the rest under OTHER_REFERRERS), sorted by link, day and host: the order every writer locks rows in.
 */
export function countReferrers(b: ViewBatch): ReferrerCount[] {
  const days = new Map<number, string>();
  const cells = new Map<string, ReferrerCount>();
  for (let i = 0; i < b.size; i++) {
    if (b.isBot[i]) continue;
    const linkId = b.linkId[i]!;
    const dayNumber = Math.floor(b.at[i]! / DAY_MS);
    let day = days.get(dayNumber);
    if (day === undefined) days.set(dayNumber, (day = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10)));
    const index = b.attribution[i]!;
    const host = referrerBucket(index < 0 ? null : b.strings[index]!);
    const key = `${linkId}\u0000${day}\u0000${host}`;
    const cell = cells.get(key);
    if (cell) cell.human++;
    else cells.set(key, { linkId, day, host, human: 1 });
  }
  return capped([...cells.values()]);
}

const byKey = (x: ReferrerCount, y: ReferrerCount) => x.linkId - y.linkId || (x.day < y.day ? -1 : x.day > y.day ? 1 : 0) || (x.host < y.host ? -1 : x.host > y.host ? 1 : 0);

/** Folds each link and day's hosts past the cap, fewest views first, into OTHER_REFERRERS. */
function capped(cells: ReferrerCount[]): ReferrerCount[] {
  const kept: ReferrerCount[] = [];
  const others = new Map<string, ReferrerCount>();
  const hosts = new Map<string, ReferrerCount[]>();
  for (const cell of cells) {
    const key = `${cell.linkId}\u0000${cell.day}`;
    if (cell.host === OTHER_REFERRERS) others.set(key, cell);
    if (cell.host === NO_REFERRER || cell.host === OTHER_REFERRERS) kept.push(cell);
    else {
      const group = hosts.get(key);
      if (group) group.push(cell);
      else hosts.set(key, [cell]);
    }
  }
  for (const [key, group] of hosts) {
    group.sort((x, y) => y.human - x.human || byKey(x, y));
    kept.push(...group.slice(0, REFERRER_HOSTS_PER_DAY));
    for (const cell of group.slice(REFERRER_HOSTS_PER_DAY)) {
      const other = others.get(key);
      if (other) other.human += cell.human;
      else {
        const first = { ...cell, host: OTHER_REFERRERS };
        others.set(key, first);
        kept.push(first);
      }
    }
  }
  return kept.sort(byKey);
}
