// A batch's crawler fetches (the views verifyBatch gave a verification: card fetches and platforms' checks from
// their networks) as rows of the fetch record, and when to trim the record (docs/decisions/0066). Their counts by
// verification ride on the rollups (views/pending-rollups.ts). The batch is walked once; only crawler fetches
// cost more than a byte test.
import { FETCH_RECORD_MS, type CrawlerFetchRow } from "../db/crawler-fetch-rows.ts";
import { VERIFICATION } from "./crawler-verification.ts";
import type { ViewBatch } from "./view-batch.ts";

export function crawlerFetchesOf(b: ViewBatch): CrawlerFetchRow[] {
  const rows: CrawlerFetchRow[] = [];
  for (let i = 0; i < b.size; i++) {
    const verification = VERIFICATION[b.verification[i]!];
    if (!verification) continue;
    const rendition = b.rendition[i]!;
    rows.push({
      linkId: b.linkId[i]!,
      at: b.at[i]!,
      platform: b.strings[b.platform[i]!]!,
      verification,
      version: b.version[i]!,
      rendition: rendition < 0 ? null : b.strings[rendition]!,
      status: b.status[i]!,
      bytes: b.bytes[i]!,
      ms: Math.round(b.ms[i]! * 100) / 100,
    });
  }
  return rows;
}

/** A link's record is trimmed once this many fetches were added since its last trim (it holds at most 1,000 + this). */
const TRIM_EVERY = 100;
/** How often the fetches past FETCH_RECORD_MS are deleted. */
const OLD_TRIM_MS = 60_000;
/** Links counted at most: past this the counts start again (those links are trimmed later). */
const COUNTED_LINKS = 50_000;

/**
 * When to trim the record: trimming after every batch cost the writer a statement per link fetched, as much as
 * storing the fetch. A rolled-back batch leaves its fetches counted here: its links are trimmed a little early.
 */
export class FetchTrimSchedule {
  private readonly sinceTrim = new Map<number, number>();
  private oldTrimmedAt = 0;

  /** After storing `rows`: the links to trim now, and the time before which fetches go (null: not yet). */
  due(rows: CrawlerFetchRow[]): { linkIds: number[]; before: number | null } {
    const linkIds: number[] = [];
    if (this.sinceTrim.size > COUNTED_LINKS) this.sinceTrim.clear();
    for (const { linkId } of rows) {
      const added = (this.sinceTrim.get(linkId) ?? 0) + 1;
      if (added < TRIM_EVERY) this.sinceTrim.set(linkId, added);
      else {
        linkIds.push(linkId);
        this.sinceTrim.delete(linkId);
      }
    }
    const at = rows[0]?.at;
    if (at === undefined || at - this.oldTrimmedAt < OLD_TRIM_MS) return { linkIds, before: null };
    this.oldTrimmedAt = at;
    return { linkIds, before: at - FETCH_RECORD_MS };
  }
}
