// View statistics of a user's links, from the rollups: totals, per-day series and crawler platforms.
import { and, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import { total } from "./queries.ts";
import { preparedOnce, preparedPerShape } from "../db/prepared.ts";
import type { Workspace } from "../workspaces/acting.ts";

/** The dashboard's totals: the user's live links, and their views summed from one link_totals row per link (kept from the rollups by triggers). */
const statsQueries = preparedOnce((db) => {
  const { linkTotals, links } = tablesOf(db);
  const liveLinks = and(eq(links.workspaceId, sql.placeholder("workspaceId")), eq(links.deleted, false));
  return {
    links: db
      .select({ totalLinks: total(sql`count(*)`) })
      .from(links)
      .where(liveLinks)
      .prepare(),
    views: db
      .select({
        human: total(sql`sum(${linkTotals.human})`),
        bot: total(sql`sum(${linkTotals.bot})`),
        uniqueHumans: total(sql`sum(${linkTotals.uniqueHumans})`),
        scans: total(sql`sum(${linkTotals.scans})`),
      })
      .from(linkTotals)
      .innerJoin(links, eq(links.id, linkTotals.linkId))
      .where(liveLinks)
      .prepare(),
  };
});

export async function linkStats(deps: LinkDeps, workspace: Workspace) {
  const queries = statsQueries(deps.database.db);
  const [[counted], [views]] = await Promise.all([
    queries.links.execute({ workspaceId: workspace.id }),
    queries.views.execute({ workspaceId: workspace.id }),
  ]);
  const { totalLinks } = counted!;
  const { human, bot, uniqueHumans, scans } = views!;
  return { totalLinks, totalViews: human + bot, humanViews: human, botViews: bot, uniqueHumans, scans };
}

const DAY_MS = 86_400_000;

/** The last `days` dates (UTC, YYYY-MM-DD), oldest first, today last. */
const lastDays = (days: number, now: number) =>
  Array.from({ length: days }, (_, i) => new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));

/** The counts summed over some rollup rows: views by kind, daily unique visitors (summed) and QR code scans. */
const dayCounts = (db: Db) => {
  const { viewRollups } = tablesOf(db);
  return {
    human: total(sql`sum(${viewRollups.human})`),
    bot: total(sql`sum(${viewRollups.bot})`),
    uniqueHumans: total(sql`sum(${viewRollups.uniqueHumans})`),
    scans: total(sql`sum(${viewRollups.scans})`),
  };
};
type DayCounts = { human: number; bot: number; uniqueHumans: number; scans: number };

/** One entry per date, zero where the rollup has no row. */
const zeroFilled = (dates: string[], rows: Map<string, DayCounts>) =>
  dates.map((date) => {
    const row = rows.get(date);
    return {
      date,
      human: row?.human ?? 0,
      bot: row?.bot ?? 0,
      uniqueHumans: row?.uniqueHumans ?? 0,
      scans: row?.scans ?? 0,
    };
  });

/** Per-day human and bot views (zero-filled, oldest first) and the crawler platforms, from the rollups. */
export async function linkViews(deps: LinkDeps, workspace: Workspace, linkId: number, days: number, now: number) {
  const { links, viewRollups } = tablesOf(deps.database.db);
  const [link] = await deps.database.db
    .select({ id: links.id })
    .from(links)
    .where(and(eq(links.id, linkId), eq(links.workspaceId, workspace.id)));
  if (!link) throw notFound(LINK_NOT_FOUND);
  const dates = lastDays(days, now);
  const rows = await deps.database.db
    .select({ day: viewRollups.day, ...dayCounts(deps.database.db) })
    .from(viewRollups)
    .where(and(eq(viewRollups.linkId, linkId), gte(viewRollups.day, dates[0]!)))
    .groupBy(viewRollups.day);
  const platforms = await linkPlatformCounts(deps, workspace, [linkId]);
  return {
    days: zeroFilled(dates, new Map(rows.map((row) => [row.day, row]))),
    platforms: platforms.get(linkId) ?? [],
  };
}

/** The crawler counts of `count` links (a shape per count: the dashboard asks for at most a page of them). */
const platformQuery = preparedPerShape(
  (db, count: number) => {
    const { links, viewRollups } = tablesOf(db);
    const sum = total(sql`sum(${viewRollups.bot})`);
    const ids = Array.from({ length: count }, (_, i) => sql.placeholder(`id${i}`));
    return db
      .select({ linkId: viewRollups.linkId, platform: viewRollups.platform, count: sum })
      .from(viewRollups)
      .innerJoin(links, eq(links.id, viewRollups.linkId))
      .where(
        and(
          eq(links.workspaceId, sql.placeholder("workspaceId")),
          inArray(links.id, ids),
          ne(viewRollups.platform, ""),
        ),
      )
      .groupBy(viewRollups.linkId, viewRollups.platform)
      .having(sql`${sum} > 0`)
      .orderBy(desc(sum), viewRollups.platform)
      .prepare();
  },
  (count) => String(count),
);

/** The given links' all-time crawler counts by platform, most first, in one query on the rollups (people's rows have no platform). */
export async function linkPlatformCounts(deps: LinkDeps, workspace: Workspace, linkIds: number[]) {
  const platformRows = await platformQuery(deps.database.db, linkIds.length).execute({
    workspaceId: workspace.id,
    ...Object.fromEntries(linkIds.map((id, i) => [`id${i}`, id])),
  });
  const platforms = new Map<number, Array<{ platform: string; count: number }>>();
  for (const row of platformRows)
    platforms.set(row.linkId, [...(platforms.get(row.linkId) ?? []), { platform: row.platform, count: row.count }]);
  return platforms;
}
