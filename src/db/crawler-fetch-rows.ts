// A batch's crawler fetches on record as the stores write them (views/crawler-fetches.ts shapes them; db/sqlite/ and
// db/postgres/crawler-fetches.ts store them), and how long the record keeps them (docs/decisions/0066).

/** The record keeps a link's last this many fetches… */
export const FETCHES_PER_LINK = 1000;
/** …and none older than this. */
export const FETCH_RECORD_MS = 90 * 86_400_000;

/** One fetch on record. */
export type CrawlerFetchRow = {
  linkId: number;
  at: number;
  platform: string;
  verification: string;
  version: number;
  rendition: string | null;
  status: number;
  bytes: number;
  ms: number;
};

/** A platform's fetch of a link version that may be its first (preview.fetched). */
export type FirstFetch = { linkId: number; version: number; platform: string; verification: string; at: number };

/** A webhook event to record for a link's owner, worded by the caller (webhooks/record-event.ts's body). */
export type Announcement = { linkId: number; eventId: string; type: string; payload: string; at: number };
