// preview.fetched: a platform's first fetch of each version of a link ("your link was just shared on Slack"),
// announced by the view writer (docs/decisions/0066). Only card fetches count (a 302 to a platform's check is not
// a share). The writer remembers the firsts it knows are recorded, so a platform fetching the same card again
// costs no statement; the database decides what is first (db/sqlite/ and db/postgres/first-fetches.ts).
import type { Announcement, CrawlerFetchRow, FirstFetch } from "../db/crawler-fetch-rows.ts";
import { eventBody, newEventId } from "../webhooks/record-event.ts";

const TYPE = "preview.fetched";
/** Firsts remembered at most: past this the memo starts again (a known one costs a statement once more). */
const REMEMBERED = 100_000;
const keyOf = (f: { linkId: number; version: number; platform: string }) => `${f.linkId} ${f.version} ${f.platform}`;

export class FirstFetches {
  private readonly known = new Set<string>();

  /** The batch's card fetches that may be firsts: not known to be recorded, once each. */
  candidates(rows: CrawlerFetchRow[]): FirstFetch[] {
    const seen = new Set<string>();
    const firsts: FirstFetch[] = [];
    for (const { linkId, version, platform, verification, at, rendition } of rows) {
      if (rendition === null) continue;
      const key = keyOf({ linkId, version, platform });
      if (this.known.has(key) || seen.has(key)) continue;
      seen.add(key);
      firsts.push({ linkId, version, platform, verification, at });
    }
    return firsts;
  }

  /** `firsts` are recorded now (committed): later fetches of theirs are not firsts. */
  remember(firsts: FirstFetch[]): void {
    if (this.known.size + firsts.length > REMEMBERED) this.known.clear();
    for (const first of firsts) this.known.add(keyOf(first));
  }
}

/** The preview.fetched event of each new first (webhooks/wire.ts's PreviewFetchedEvent). */
export const announcements = (added: Array<FirstFetch & { linkSlug: string }>): Announcement[] =>
  added.map(({ linkId, linkSlug, platform, verification, version, at }) => ({
    linkId,
    eventId: newEventId(),
    type: TYPE,
    payload: eventBody(TYPE, at, {
      id: linkId,
      linkSlug,
      platform,
      verification,
      version,
      at: new Date(at).toISOString(),
    }),
    at,
  }));
