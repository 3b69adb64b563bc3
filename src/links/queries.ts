// Reading a user's links: lists, one by slug, and whether a slug is free. Every query is scoped to the owner's id.
import { and, desc, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Link, type Tables } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { LINK_NOT_FOUND, SLUG_RESERVED, SLUG_TAKEN, type LinkDeps } from "./deps.ts";
import { couldBeLinkSlug } from "./model.ts";
import { present, type LinkRow, type PresentedLink } from "./present.ts";
import { isReservedSlug } from "./slugs.ts";
import { rulesColumns } from "../rules/present.ts";
import { earlierAddresses, type EarlierAddress } from "./old-addresses.ts";
import type { Workspace } from "../workspaces/acting.ts";

/** A sum as a JS number on both engines (PostgreSQL's sum and count are bigint or numeric, read as text). */
export const total = (expression: SQL) => sql<number>`coalesce(${expression}, 0)`.mapWith(Number);

/**
 * A link's all-time count of one kind, from its link_totals row (the sum of its rollup rows, kept by triggers;
 * joined in selectLinks). For unique visitors that is the sum of the daily counts ("daily unique visitors, summed").
 */
const linkTotal = (column: Tables["linkTotals"]["human" | "bot" | "scans" | "uniqueHumans"]) => total(sql`${column}`);

/** The columns present.ts reads (LinkRow), view counters summed (a function: db/tables.ts switches engine at start). */
const linkColumns = (db: Db) => {
  const { domains, linkQrStyles, linkTotals, links } = tablesOf(db);
  return {
    id: links.id,
    linkSlug: links.linkSlug,
    targetUrl: links.targetUrl,
    title: links.title,
    description: links.description,
    imageUrl: links.imageUrl,
    imageSource: links.imageSource,
    imageBytes: links.imageBytes,
    imageSourceWidth: links.imageSourceWidth,
    imageSourceHeight: links.imageSourceHeight,
    imageSourceBytes: links.imageSourceBytes,
    imageSourceUrl: links.imageSourceUrl,
    imageSquareUrl: links.imageSquareUrl,
    imageXUrl: links.imageXUrl,
    focalX: links.focalX,
    focalY: links.focalY,
    xTitle: links.xTitle,
    whatsappDescription: links.whatsappDescription,
    viewsBot: linkTotal(linkTotals.bot),
    viewsHuman: linkTotal(linkTotals.human),
    version: links.version,
    uniqueHumans: linkTotal(linkTotals.uniqueHumans),
    scans: linkTotal(linkTotals.scans),
    createdAt: links.createdAt,
    deletedAt: links.deletedAt,
    ...rulesColumns(db),
    domain: domains.hostname,
    domainStatus: domains.status,
    status: links.status,
    disabledReason: links.disabledReason,
    qrStyle: linkQrStyles.style,
  };
};

/**
 * Links with their view counters, rules and custom domain, each a row joined once (not a subquery per column:
 * building and running those was most of a link list's cost); `where` must scope them to one user.
 */
export function selectLinks(db: Db, where: SQL | undefined) {
  const { domains, linkQrStyles, linkRules, linkTotals, links } = tablesOf(db);
  return db
    .select(linkColumns(db))
    .from(links)
    .leftJoin(linkRules, eq(linkRules.linkId, links.id))
    .leftJoin(linkTotals, eq(linkTotals.linkId, links.id))
    .leftJoin(domains, eq(domains.id, links.domainId))
    .leftJoin(linkQrStyles, eq(linkQrStyles.linkId, links.id))
    .where(where)
    .$dynamic();
}

/** The user's live or deleted links, newest first; all of them, or one page. */
export async function listLinks(
  deps: LinkDeps,
  workspace: Workspace,
  which: "live" | "deleted",
  page?: { limit: number; offset: number },
): Promise<PresentedLink[]> {
  const { links } = tablesOf(deps.database.db);
  const query = selectLinks(
    deps.database.db,
    and(eq(links.workspaceId, workspace.id), eq(links.deleted, which === "deleted")),
  ).orderBy(which === "deleted" ? desc(links.deletedAt) : desc(links.createdAt), desc(links.id));
  return (await (page ? query.limit(page.limit).offset(page.offset) : query)).map((row) =>
    present(row, workspace.slug, deps.publicUrl),
  );
}

export async function findLiveLink(
  db: Db,
  workspaceId: number,
  where: { slug: string } | { id: number },
): Promise<Link | undefined> {
  const { links } = tablesOf(db);
  if ("slug" in where && !couldBeLinkSlug(where.slug)) return undefined;
  const [row] = await db
    .select()
    .from(links)
    .where(
      and(
        eq(links.workspaceId, workspaceId),
        eq(links.deleted, false),
        "slug" in where ? eq(links.linkSlug, where.slug) : eq(links.id, where.id),
      ),
    );
  return row;
}

/** One link, with its earlier addresses (docs/decisions/0047), which only the editor and one link's answers list. */
export async function getLinkBySlug(
  deps: LinkDeps,
  workspace: Workspace,
  slug: string,
): Promise<PresentedLink & { oldAddresses?: EarlierAddress[] }> {
  const { links } = tablesOf(deps.database.db);
  if (!couldBeLinkSlug(slug)) throw notFound(LINK_NOT_FOUND);
  const [row] = await selectLinks(
    deps.database.db,
    and(eq(links.workspaceId, workspace.id), eq(links.deleted, false), eq(links.linkSlug, slug)),
  );
  if (!row) throw notFound(LINK_NOT_FOUND);
  return {
    ...present(row, workspace.slug, deps.publicUrl),
    oldAddresses: await earlierAddresses(deps.database.db, deps.publicUrl, workspace, row.id),
  };
}

/** Whether an earlier address holds `slug` for the workspace: a dropped one, or one of a link other than `linkId`. */
async function slugHeldEarlier(db: Db, workspaceId: number, slug: string, linkId?: number): Promise<boolean> {
  const { linkOldAddresses } = tablesOf(db);
  const [row] = await db
    .select({ id: linkOldAddresses.id })
    .from(linkOldAddresses)
    .where(
      and(
        eq(linkOldAddresses.workspaceId, workspaceId),
        eq(linkOldAddresses.linkSlug, slug),
        linkId === undefined ? undefined : or(isNull(linkOldAddresses.linkId), ne(linkOldAddresses.linkId, linkId)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/**
 * Whether the user's `slug` is taken: by a live link other than `linkId`, or by an earlier address (docs/decisions/0047)
 * other than one of `linkId`'s own, which it may take back.
 */
export async function slugInUse(db: Db, workspaceId: number, slug: string, linkId?: number): Promise<boolean> {
  const live = await findLiveLink(db, workspaceId, { slug });
  return (live !== undefined && live.id !== linkId) || (await slugHeldEarlier(db, workspaceId, slug, linkId));
}

/**
 * `candidate` and `editing` as the route's query parsed them (RequestedSlug, SlugCheckLinkId); `editing`: the link
 * being edited (the editor's check), so that the answer agrees with saving it.
 */
export async function checkSlugAvailability(
  deps: LinkDeps,
  workspace: Workspace,
  candidate: string,
  editing?: number,
): Promise<{ available: boolean; message: string }> {
  if (isReservedSlug(candidate)) return { available: false, message: SLUG_RESERVED };
  if (await slugInUse(deps.database.db, workspace.id, candidate, editing))
    return { available: false, message: SLUG_TAKEN };
  return { available: true, message: "Custom slug available" };
}
