// Which crawler network an address is in: the platforms' published crawler lists (Google, Bing, Apple, Telegram)
// and their autonomous systems' prefixes (Meta, X, LinkedIn), shipped as crawler-networks/networks.txt (built by
// scripts/build-crawler-networks.ts; docs/decisions/0066). Read by the view writer alone: the request thread never
// loads it, and the address is looked at there and forgotten.
import ipaddr from "ipaddr.js";
import { boundedMemo } from "../bounded-memo.ts";
import networksText from "./crawler-networks/networks.txt" with { type: "text" };

/** A network of networks.txt: a published list (google, bing, apple, telegram) or an AS (meta, x, linkedin). */
export type CrawlerNetwork = "google" | "bing" | "apple" | "telegram" | "meta" | "x" | "linkedin";

/**
 * Ranges of one address family, sorted by their first address (disjoint within a network); `reach`: the highest
 * last address of this range and every one before it, so that a lookup knows when to stop going back.
 */
type Ranges<N> = Array<{ first: N; last: N; reach: N; network: CrawlerNetwork }>;

function parseNetworks(text: string): { v4: Ranges<number>; v6: Ranges<bigint> } {
  const v4: Ranges<number> = [];
  const v6: Ranges<bigint> = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const [name, ...ranges] = line.split(" ");
    const network = name as CrawlerNetwork;
    for (const range of ranges) {
      const [first, last] = range.split("-") as [string, string];
      if (first.includes(":")) v6.push({ first: v6Number(first), last: v6Number(last), reach: 0n, network });
      else v4.push({ first: v4Number(first), last: v4Number(last), reach: 0, network });
    }
  }
  const byFirst = <N extends number | bigint>(a: { first: N }, b: { first: N }) =>
    a.first < b.first ? -1 : a.first > b.first ? 1 : 0;
  return { v4: withReach(v4.sort(byFirst)), v6: withReach(v6.sort(byFirst)) };
}

function withReach<N extends number | bigint>(ranges: Ranges<N>): Ranges<N> {
  ranges.forEach((range, i) => {
    range.reach = i > 0 && ranges[i - 1]!.reach > range.last ? ranges[i - 1]!.reach : range.last;
  });
  return ranges;
}

const v4Number = (address: string) => address.split(".").reduce((n, part) => n * 256 + Number(part), 0);
const v6Number = (address: string) =>
  ipaddr.IPv6.parse(address)
    .toByteArray()
    .reduce((n, byte) => (n << 8n) | BigInt(byte), 0n);

/** The networks' ranges: a published list and an AS may overlap (a list wins: it names the crawler itself). */
const NETWORKS = parseNetworks(networksText);
const LISTS: ReadonlySet<CrawlerNetwork> = new Set(["google", "bing", "apple", "telegram"]);

/** The network holding `n`, if any: a binary search, then back over the ranges that may still cover it. */
function find<N extends number | bigint>(ranges: Ranges<N>, n: N): CrawlerNetwork | null {
  // The last range starting at or before n.
  let low = 0;
  let high = ranges.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (ranges[mid]!.first <= n) low = mid + 1;
    else high = mid - 1;
  }
  let found: CrawlerNetwork | null = null;
  for (let i = high; i >= 0 && ranges[i]!.reach >= n; i--) {
    const range = ranges[i]!;
    if (range.last >= n && (found === null || LISTS.has(range.network))) found = range.network;
  }
  return found;
}

const IPV4 = /^(?:::ffff:)?(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/i;

/** The crawler network `address` is in, or null (also for an address that does not parse). */
export const networkOf = boundedMemo(10_000, (address: string): CrawlerNetwork | null => {
  const v4 = IPV4.exec(address);
  if (v4) return find(NETWORKS.v4, v4Number(v4[1]!));
  if (!address.includes(":") || !ipaddr.IPv6.isValid(address)) return null;
  return find(NETWORKS.v6, v6Number(address));
});
