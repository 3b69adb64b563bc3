// View statistics of a user's links, from the rollups: totals, per-day series and crawler platforms.
import { and, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { links, linkTotals, viewRollups, type User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import { total } from "./queries.ts";

export async function linkStats(deps: LinkDeps, user: User) {
  const liveLinks = and(eq(links.userId, user.id), eq(links.deleted, false));
  const [{ totalLinks }] = await deps.db.select({ totalLinks: total(sql`count(*)`) }).from(links).where(liveLinks);
  // One link_totals row per link (kept from the rollups by triggers), not every rollup row.
  const [views] = await deps.db
    .select({
      human: total(sql`sum(${linkTotals.human})`),
      bot: total(sql`sum(${linkTotals.bot})`),
      uniqueHumans: total(sql`sum(${linkTotals.uniqueHumans})`),
      scans: total(sql`sum(${linkTotals.scans})`),
    })
    .from(linkTotals)
    .innerJoin(links, eq(links.id, linkTotals.linkId))
    .where(liveLinks);
  const { human, bot, uniqueHumans, scans } = views!;
  return { totalLinks, totalViews: human + bot, humanViews: human, botViews: bot, uniqueHumans, scans };
}

const DAY_MS = 86_400_000;

/** The last `days` dates (UTC, YYYY-MM-DD), oldest first, today last. */
const lastDays = (days: number, now: number) => Array.from({ length: days }, (_, i) => new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));

/** The counts summed over some rollup rows: views by kind, daily unique visitors (summed) and QR code scans. */
const dayCounts = () => ({
  human: total(sql`sum(${viewRollups.human})`),
  bot: total(sql`sum(${viewRollups.bot})`),
  uniqueHumans: total(sql`sum(${viewRollups.uniqueHumans})`),
  scans: total(sql`sum(${viewRollups.scans})`),
});
type DayCounts = { human: number; bot: number; uniqueHumans: number; scans: number };

/** One entry per date, zero where the rollup has no row. */
const zeroFilled = (dates: string[], rows: Map<string, DayCounts>) =>
  dates.map((date) => {
    const row = rows.get(date);
    return { date, human: row?.human ?? 0, bot: row?.bot ?? 0, uniqueHumans: row?.uniqueHumans ?? 0, scans: row?.scans ?? 0 };
  });

/** Per-day human and bot views (zero-filled, oldest first) and the crawler platforms, from the rollups. */
export async function linkViews(deps: LinkDeps, user: User, linkId: number, days: number, now = Date.now()) {
  const [link] = await deps.db.select({ id: links.id }).from(links).where(and(eq(links.id, linkId), eq(links.userId, user.id)));
  if (!link) throw notFound(LINK_NOT_FOUND);
  const dates = lastDays(days, now);
  const rows = await deps.db
    .select({ day: viewRollups.day, ...dayCounts() })
    .from(viewRollups)
    .where(and(eq(viewRollups.linkId, linkId), gte(viewRollups.day, dates[0]!)))
    .groupBy(viewRollups.day);
  const platforms = await linkPlatformCounts(deps, user, [linkId]);
  return { days: zeroFilled(dates, new Map(rows.map((row) => [row.day, row]))), platforms: platforms.get(linkId) ?? [] };
}

/** The given links' all-time crawler counts by platform, most first, in one query on the rollups (people's rows have no platform). */
export async function linkPlatformCounts(deps: LinkDeps, user: User, linkIds: number[]) {
  const count = total(sql`sum(${viewRollups.bot})`);
  const platformRows = await deps.db
    .select({ linkId: viewRollups.linkId, platform: viewRollups.platform, count })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(and(eq(links.userId, user.id), inArray(links.id, linkIds), ne(viewRollups.platform, "")))
    .groupBy(viewRollups.linkId, viewRollups.platform)
    .having(sql`${count} > 0`)
    .orderBy(desc(count), viewRollups.platform);
  const platforms = new Map<number, Array<{ platform: string; count: number }>>();
  for (const row of platformRows) platforms.set(row.linkId, [...(platforms.get(row.linkId) ?? []), { platform: row.platform, count: row.count }]);
  return platforms;
}
