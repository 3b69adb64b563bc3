// A link's crawler fetch record, newest first (GET /api/links/:id/fetches), and its crawler views by
// verification (the platforms route, the dashboard, the statistics; from the rollups): read from the tables the
// view writer keeps (docs/decisions/0066). Every read is of a link of the acting workspace.
import { and, desc, eq, gte, inArray, lt, ne, sql } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { Workspace } from "../workspaces/acting.ts";
import { notFound } from "../http/errors.ts";
import { idPage } from "../http/wire.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import type { CrawlerFetchesJson } from "./fetches-wire.ts";
import { total } from "./queries.ts";

export type VerificationCounts = { verified: number; unverified: number; unverifiable: number };

/** One page of the link's fetches, older than `cursor` (a fetch's id) if given. */
export async function linkFetches(
  deps: LinkDeps,
  workspace: Workspace,
  linkId: number,
  limit: number,
  cursor: string | undefined,
): Promise<CrawlerFetchesJson> {
  const { links, crawlerFetches } = tablesOf(deps.database.db);
  const [link] = await deps.database.db
    .select({ id: links.id })
    .from(links)
    .where(and(eq(links.id, linkId), eq(links.workspaceId, workspace.id), eq(links.deleted, false)));
  if (!link) throw notFound(LINK_NOT_FOUND);
  const rows = await deps.database.db
    .select()
    .from(crawlerFetches)
    .where(
      and(eq(crawlerFetches.linkId, linkId), cursor === undefined ? undefined : lt(crawlerFetches.id, Number(cursor))),
    )
    .orderBy(desc(crawlerFetches.id))
    .limit(limit + 1);
  return idPage(rows, limit, ({ at, platform, verification, version, rendition, status, bytes, ms }) => ({
    at: at.toISOString(),
    platform,
    verification,
    version,
    rendition,
    status,
    bytes,
    ms,
  }));
}

/**
 * The given links' crawler views by platform and verification, since `since` (YYYY-MM-DD) or all time: only links
 * of `workspace` are read.
 */
export async function linkVerificationCounts(
  deps: LinkDeps,
  workspace: Workspace,
  linkIds: number[],
  since?: string,
): Promise<Map<number, Map<string, VerificationCounts>>> {
  const { links, viewRollups: counts } = tablesOf(deps.database.db);
  const byLink = new Map<number, Map<string, VerificationCounts>>();
  if (linkIds.length === 0) return byLink;
  const rows = await deps.database.db
    .select({
      linkId: counts.linkId,
      platform: counts.platform,
      verified: total(sql`sum(${counts.verified})`),
      unverified: total(sql`sum(${counts.unverified})`),
      unverifiable: total(sql`sum(${counts.unverifiable})`),
    })
    .from(counts)
    .innerJoin(links, eq(links.id, counts.linkId))
    .where(
      and(
        eq(links.workspaceId, workspace.id),
        inArray(counts.linkId, linkIds),
        ne(counts.platform, ""),
        since === undefined ? undefined : gte(counts.day, since),
      ),
    )
    .groupBy(counts.linkId, counts.platform);
  for (const { linkId, platform, ...n } of rows) {
    if (!byLink.has(linkId)) byLink.set(linkId, new Map());
    byLink.get(linkId)!.set(platform, n);
  }
  return byLink;
}
