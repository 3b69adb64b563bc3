// A link's statistics over a range (the last 7, 30 or 90 days, or all of them), for its statistics page and that
// page's CSV downloads: people and crawlers per day, daily unique visitors and QR scans, the crawler platforms
// and the top referrer hosts. Grouped reads of the rollups, on their (link, day, …) keys.
import { and, desc, eq, gte, ne, sql } from "drizzle-orm";
import { tablesOf, type User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import { linkVerificationCounts } from "./fetches.ts";
import { couldBeLinkSlug } from "./model.ts";
import { total } from "./queries.ts";
import { topReferrers } from "./referrers.ts";
import { shortUrlOf } from "./url.ts";

export const REPORT_RANGES = ["7", "30", "90", "all"] as const;
export type ReportRange = (typeof REPORT_RANGES)[number];
export const parseRange = (value: unknown): ReportRange =>
  REPORT_RANGES.includes(value as ReportRange) ? (value as ReportRange) : "30";

const DAY_MS = 86_400_000;
const dayName = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export type ReportDay = { date: string; human: number; bot: number; uniqueHumans: number; scans: number };
export type LinkReport = Awaited<ReturnType<typeof linkReport>>;

export async function linkReport(deps: LinkDeps, user: User, slug: string, range: ReportRange, now: number) {
  const { links, viewRollups } = tablesOf(deps.database.db);
  if (!couldBeLinkSlug(slug)) throw notFound(LINK_NOT_FOUND);
  const [link] = await deps.database.db
    .select({
      id: links.id,
      title: links.title,
      linkSlug: links.linkSlug,
      createdAt: links.createdAt,
      version: links.version,
    })
    .from(links)
    .where(and(eq(links.userId, user.id), eq(links.deleted, false), eq(links.linkSlug, slug)));
  if (!link) throw notFound(LINK_NOT_FOUND);
  const today = Math.floor(now / DAY_MS);
  // "All": from the day the link was made (a rollup day before it, from a copied database, widens the range).
  const firstDay =
    range === "all" ? Math.min(today, Math.floor(link.createdAt.getTime() / DAY_MS)) : today - Number(range) + 1;
  const since = dayName(firstDay * DAY_MS);
  const ofLink = and(eq(viewRollups.linkId, link.id), gte(viewRollups.day, since));
  const rows = await deps.database.db
    .select({
      day: viewRollups.day,
      human: total(sql`sum(${viewRollups.human})`),
      bot: total(sql`sum(${viewRollups.bot})`),
      uniqueHumans: total(sql`sum(${viewRollups.uniqueHumans})`),
      scans: total(sql`sum(${viewRollups.scans})`),
    })
    .from(viewRollups)
    .where(ofLink)
    .groupBy(viewRollups.day);
  const count = total(sql`sum(${viewRollups.bot})`);
  const platformRows = await deps.database.db
    .select({ platform: viewRollups.platform, count })
    .from(viewRollups)
    .where(and(ofLink, ne(viewRollups.platform, "")))
    .groupBy(viewRollups.platform)
    .having(sql`${count} > 0`)
    .orderBy(desc(count), viewRollups.platform);
  // Each platform's fetches by verification over the same days (docs/decisions/0066).
  const verification = (await linkVerificationCounts(deps, user, [link.id], since)).get(link.id);
  const platforms = platformRows.map((row) => ({
    ...row,
    ...(verification?.get(row.platform) ?? { verified: 0, unverified: 0, unverifiable: 0 }),
  }));
  const referrers = await topReferrers(deps, link.id, since);
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const start = Math.min(firstDay, ...rows.map((row) => Math.floor(Date.parse(row.day) / DAY_MS)));
  const days: ReportDay[] = Array.from({ length: today - start + 1 }, (_, i) => {
    const date = dayName((start + i) * DAY_MS);
    const row = byDay.get(date);
    return {
      date,
      human: row?.human ?? 0,
      bot: row?.bot ?? 0,
      uniqueHumans: row?.uniqueHumans ?? 0,
      scans: row?.scans ?? 0,
    };
  });
  const sum = (pick: (d: ReportDay) => number) => days.reduce((n, d) => n + pick(d), 0);
  return {
    link: {
      id: link.id,
      title: link.title,
      linkSlug: link.linkSlug,
      shortUrl: shortUrlOf(deps.publicUrl, user.userSlug, link.linkSlug, link.version),
    },
    range,
    days,
    platforms,
    referrers,
    totals: {
      human: sum((d) => d.human),
      bot: sum((d) => d.bot),
      uniqueHumans: sum((d) => d.uniqueHumans),
      scans: sum((d) => d.scans),
    },
  };
}
