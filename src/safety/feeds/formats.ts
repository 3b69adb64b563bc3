// THREAT_FEEDS: comma-separated `format:location`, the location a file path or an http(s) URL.
import { parsePhishtank } from "./phishtank.ts";
import { parseHostList } from "./hosts.ts";
import { parseUrlList } from "./openphish.ts";
import type { ParsedFeed } from "./parsed.ts";
import { parseUrlhaus } from "./urlhaus.ts";

export const FEED_FORMATS = {
  urlhaus: parseUrlhaus,
  phishtank: parsePhishtank,
  openphish: parseUrlList,
  hosts: parseHostList,
} satisfies Record<string, (text: string) => ParsedFeed>;
export type FeedFormat = keyof typeof FEED_FORMATS;

/** What refusals and the inspect page name a source by. */
export const SOURCE_NAMES: Record<string, string> = {
  urlhaus: "URLhaus (abuse.ch)",
  phishtank: "PhishTank",
  openphish: "OpenPhish",
  hosts: "the instance's host list",
  operator: "this instance's operator",
};

/** `source`: the key its entries are stored under (the format; `format-2`, … for a second feed of one format). */
export type FeedSource = { source: string; format: FeedFormat; location: string };

export function parseFeedList(text: string): FeedSource[] {
  const seen = new Map<string, number>();
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const colon = item.indexOf(":");
      const format = item.slice(0, colon);
      const location = item.slice(colon + 1).trim();
      if (colon < 1 || !(format in FEED_FORMATS))
        throw new Error(`${JSON.stringify(item)}: start with urlhaus:, phishtank:, openphish: or hosts:`);
      if (!location) throw new Error(`${JSON.stringify(item)}: name a file or an http(s) URL after the format`);
      const count = (seen.get(format) ?? 0) + 1;
      seen.set(format, count);
      return { source: count === 1 ? format : `${format}-${count}`, format: format as FeedFormat, location };
    });
}

export const sourceName = (source: string) =>
  SOURCE_NAMES[source] ?? SOURCE_NAMES[source.replace(/-\d+$/, "")] ?? source;
