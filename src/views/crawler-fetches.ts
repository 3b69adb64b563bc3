// A batch's crawler fetches (the views verifyBatch gave a verification: card fetches and platforms' checks from
// their networks) as rows of the fetch record and counts by verification (docs/decisions/0066). Crawler fetches
// are a small share of views: the batch is walked once, and only they cost more than a byte test.
import type { CrawlerFetchCount, CrawlerFetchRow } from "../db/crawler-fetch-rows.ts";
import { VERIFICATION } from "./crawler-verification.ts";
import type { ViewBatch } from "./view-batch.ts";

const DAY_MS = 86_400_000;

export function crawlerFetchesOf(b: ViewBatch): { rows: CrawlerFetchRow[]; counts: CrawlerFetchCount[] } {
  const rows: CrawlerFetchRow[] = [];
  const counts = new Map<string, CrawlerFetchCount>();
  for (let i = 0; i < b.size; i++) {
    const verification = VERIFICATION[b.verification[i]!];
    if (!verification) continue;
    const linkId = b.linkId[i]!;
    const at = b.at[i]!;
    const platform = b.strings[b.platform[i]!]!;
    const rendition = b.rendition[i]!;
    rows.push({
      linkId,
      at,
      platform,
      verification,
      version: b.version[i]!,
      rendition: rendition < 0 ? null : b.strings[rendition]!,
      status: b.status[i]!,
      bytes: b.bytes[i]!,
      ms: Math.round(b.ms[i]! * 100) / 100,
    });
    const day = new Date(Math.floor(at / DAY_MS) * DAY_MS).toISOString().slice(0, 10);
    const key = `${linkId} ${day} ${platform}`;
    let count = counts.get(key);
    if (!count) counts.set(key, (count = { linkId, day, platform, verified: 0, unverified: 0, unverifiable: 0 }));
    count[verification]++;
  }
  // One lock order on every PostgreSQL node: by link, day, platform.
  const sorted = [...counts.values()].sort(
    (x, y) => x.linkId - y.linkId || x.day.localeCompare(y.day) || x.platform.localeCompare(y.platform),
  );
  return { rows, counts: sorted };
}
