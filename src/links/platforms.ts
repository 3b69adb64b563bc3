// How each platform's crawler has seen a link's card, and Facebook's re-scrape after a change.
import { and, eq, isNull, lte, ne, or, sql } from "drizzle-orm";
import { tablesOf, type User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import {
  MOCKUP_PLATFORMS,
  PLATFORM_IDS,
  PLATFORMS,
  refreshUrl,
  type PlatformId,
  type RefreshKind,
} from "../previews/platforms.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import { total } from "./queries.ts";
import { linkHostname } from "../webhooks/link-events.ts";
import { linkVerificationCounts } from "./fetches.ts";
import { shortUrlOf } from "./url.ts";

/**
 * After the save, in the background: asks Facebook to scrape the address again (when configured) and stores
 * its answer on the link for the platforms panel. A slower answer to an older request never overwrites a newer one.
 */
export function askFacebookToRescrape(deps: LinkDeps, user: User, linkId: number, shortUrl: string): void {
  const { links } = tablesOf(deps.database.db);
  deps.facebook?.request(shortUrl, async (outcome) => {
    await deps.database.db
      .update(links)
      .set({ facebookScrapeAt: outcome.at, facebookScrapeOk: outcome.ok, facebookScrapeMessage: outcome.message })
      .where(
        and(
          eq(links.id, linkId),
          eq(links.userId, user.id),
          or(isNull(links.facebookScrapeAt), lte(links.facebookScrapeAt, outcome.at)),
        ),
      );
  });
}

/** Platforms listed by GET /api/links/:id/platforms: the ones with mockups first, then any other that fetched. */
const LISTED_PLATFORMS: readonly PlatformId[] = MOCKUP_PLATFORMS;

/**
 * GET /api/links/:id/platforms: per platform, how often its crawler fetched the card (all time), when last, and
 * whether that was before the card last changed (it may still show the old one), with the way to refresh it.
 * Read from the rollups alone: the view writer keeps `last_at` as it counts.
 */
export async function linkPlatforms(deps: LinkDeps, user: User, linkId: number) {
  const { links, viewRollups } = tablesOf(deps.database.db);
  const [link] = await deps.database.db
    .select({
      linkSlug: links.linkSlug,
      version: links.version,
      createdAt: links.createdAt,
      cardUpdatedAt: links.cardUpdatedAt,
      scrapeAt: links.facebookScrapeAt,
      scrapeOk: links.facebookScrapeOk,
      scrapeMessage: links.facebookScrapeMessage,
      domainId: links.domainId,
    })
    .from(links)
    .where(and(eq(links.id, linkId), eq(links.userId, user.id), eq(links.deleted, false)));
  if (!link) throw notFound(LINK_NOT_FOUND);
  const fetches = total(sql`sum(${viewRollups.bot})`);
  const rows = await deps.database.db
    .select({
      platform: viewRollups.platform,
      fetches,
      lastAt: sql<Date | null>`max(${viewRollups.lastAt})`.mapWith(viewRollups.lastAt),
    })
    .from(viewRollups)
    .where(and(eq(viewRollups.linkId, linkId), ne(viewRollups.platform, "")))
    .groupBy(viewRollups.platform);
  const cardUpdatedAt = link.cardUpdatedAt ?? link.createdAt;
  // Refresh tools are pointed at the address shared now.
  const shortUrl = shortUrlOf(
    deps.publicUrl,
    user.userSlug,
    link.linkSlug,
    link.version,
    await linkHostname(deps.database.db, link.domainId),
  );
  // Null when never asked, or no longer configured (an old answer would describe settings that are gone).
  const scrape =
    deps.facebook && link.scrapeAt
      ? { at: link.scrapeAt, ok: link.scrapeOk === true, message: link.scrapeMessage ?? "" }
      : null;
  const fetched = new Map(rows.map((row) => [row.platform, { fetches: row.fetches, lastAt: row.lastAt }]));
  const verification = (await linkVerificationCounts(deps, user, [linkId])).get(linkId);
  const countsOf = (platform: string) => verification?.get(platform) ?? { verified: 0, unverified: 0, unverifiable: 0 };
  // The mockup platforms always; any other platform platforms.ts knows once it has fetched the card (a crawler
  // it has no facts for is left out).
  const listed = [
    ...LISTED_PLATFORMS,
    ...PLATFORM_IDS.filter((id) => !LISTED_PLATFORMS.includes(id) && fetched.has(id)),
  ];
  const platforms = listed.map((id) => {
    const facts = PLATFORMS[id];
    const seen = fetched.get(id);
    const lastFetchedAt = seen?.lastAt ?? null;
    return {
      platform: id,
      name: facts.name,
      fetches: seen?.fetches ?? 0,
      ...countsOf(id),
      lastFetchedAt,
      stale: lastFetchedAt !== null && lastFetchedAt.getTime() < cardUpdatedAt.getTime(),
      cacheNote: facts.cache.note,
      refresh: {
        kind: facts.refresh.kind as RefreshKind,
        url: refreshUrl(id, shortUrl),
        note: facts.refresh.note,
        // What issues a new version (`linkprev links new-version SLUG` calls it); null for the other kinds.
        endpoint:
          facts.refresh.kind === "new-version"
            ? { method: "POST" as const, path: `/api/links/${linkId}/versions` }
            : null,
      },
      // Facebook only: the last re-scrape LinkPrev asked for (FACEBOOK_APP_ID), or null.
      ...(id === "facebook" ? { scrape } : {}),
    };
  });
  // Every other fetcher (search engines, tools, monitors, …) under the name its views are counted under.
  const bots = rows
    .filter((row) => row.fetches > 0 && !(listed as readonly string[]).includes(row.platform))
    .sort((x, y) => y.fetches - x.fetches || x.platform.localeCompare(y.platform))
    .map((row) => ({ kind: row.platform, fetches: row.fetches, lastFetchedAt: row.lastAt, ...countsOf(row.platform) }));
  return { cardUpdatedAt, platforms, bots };
}
