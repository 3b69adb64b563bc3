// One page of a user's live links, found by a search for words (each in the title, description, slug or target,
// in any order) and sorted newest first or
// most viewed first. Newest pages continue after the last row's (created, id) on the (user, deleted, created)
// index, so a late page reads no more rows than an early one; "most viewed" pages likewise on the link_totals
// (user, views, link) index.
import { and, desc, eq, lt, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { preparedPerShape } from "../db/prepared.ts";
import { z } from "zod";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { badRequest } from "../http/errors.ts";
import type { LinkDeps } from "./deps.ts";
import type { LinkRow } from "./present.ts";
import { selectLinks, total } from "./queries.ts";
import type { Workspace } from "../workspaces/acting.ts";

export const LINK_PAGE_MAX = 200;
export const LINK_SORTS = ["newest", "views"] as const;
export type LinkSort = (typeof LINK_SORTS)[number];

/** GET /api/links?limit=&cursor=&q=&sort= (without any of them the whole list, as before). */
export const LinkPageQuery = z.object({
  limit: z.coerce
    .number("limit must be a number")
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(LINK_PAGE_MAX, `limit must be ${LINK_PAGE_MAX} or less`)
    .default(50)
    .describe(`Links per page (at most ${LINK_PAGE_MAX}); the next page's address is in the Link header (rel="next")`),
  cursor: z
    .string()
    .max(100, "cursor is not one this server gave")
    .optional()
    .describe("From the Link header of the previous page"),
  q: z
    .string()
    .max(200, "q must be 200 characters or less")
    .optional()
    .describe("Words, each in the title, description, slug or target URL, in any order (case-insensitive)"),
  sort: z
    .enum(LINK_SORTS, "sort must be newest or views")
    .default("newest")
    .describe("newest (created, newest first) or views (people and crawlers, all time, most first)"),
});
/** `cursor` continues after a page the API gave; `offset` is the dashboard's numbered pages. */
export type LinkPageInput = { limit: number; q?: string; sort: LinkSort; cursor?: string; offset?: number };

/** Where the previous page ended: its last link's sort key and id, opaque to clients. */
type Cursor = { key: number; id: number };
const encodeCursor = (c: Cursor) => Buffer.from(`${c.key}.${c.id}`).toString("base64url");
function decodeCursor(text: string): Cursor {
  const match = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(text, "base64url").toString());
  if (!match) throw badRequest("cursor is not one this server gave", "cursor");
  return { key: Number(match[1]), id: Number(match[2]) };
}

/** `%text%` for LIKE, with LIKE's own wildcards in the text taken literally. */
const containing = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Links holding every pattern, each in the title, description, slug or target (lower() on both sides: PostgreSQL's LIKE minds case). */
function matching(db: Db, patterns: Array<string | Placeholder>): SQL | undefined {
  const { links } = tablesOf(db);
  const columns = [links.title, links.description, links.linkSlug, links.targetUrl];
  return and(
    ...patterns.map((pattern) => or(...columns.map((column) => sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`))),
  );
}

// More words than this are rare and would multiply the prepared shapes; the rest of the text joins the last word.
const MAX_WORDS = 6;

/** The search's LIKE patterns, one per word ("sale podcast" finds "Podcast Sale"); none without a search. */
function searchPatterns(q: string | undefined): string[] {
  // Control characters are no text a link holds, and PostgreSQL refuses a NUL in a parameter: they part words.
  const words = q?.split(/[\s\p{Cc}]+/u).filter(Boolean) ?? [];
  const kept =
    words.length > MAX_WORDS ? [...words.slice(0, MAX_WORDS - 1), words.slice(MAX_WORDS - 1).join(" ")] : words;
  return kept.map(containing);
}

/** How many live links the search finds (all of them without one): the dashboard's page count. */
export async function countLinks(deps: LinkDeps, workspace: Workspace, q: string | undefined): Promise<number> {
  const { links } = tablesOf(deps.database.db);
  const patterns = searchPatterns(q);
  const [row] = await deps.database.db
    .select({ n: total(sql`count(*)`) })
    .from(links)
    .where(and(eq(links.workspaceId, workspace.id), eq(links.deleted, false), matching(deps.database.db, patterns)));
  return row!.n;
}

export type LinkPage<L> = { links: L[]; next: string | null };

type PageShape = { sort: LinkSort; words: number; after: boolean };

/** The page query of one shape (an order, a number of search words, after a cursor or not). */
const pageQuery = preparedPerShape(
  (db, { sort, words, after }: PageShape) => {
    const { linkTotals, links } = tablesOf(db);
    const value = sql.placeholder;
    const patterns = Array.from({ length: words }, (_, i) => value(`word${i}`));
    const live = and(eq(links.workspaceId, value("workspaceId")), eq(links.deleted, false), matching(db, patterns));
    const [key, id] = sort === "views" ? [linkTotals.views, linkTotals.linkId] : [links.createdAt, links.id];
    // The key bound through its column's encoder: the created time is a Date, which each engine stores its way.
    const afterKey = sql.param(value("afterKey"), key);
    const beyond = after ? or(lt(key, afterKey), and(eq(key, afterKey), lt(id, value("afterId")))) : undefined;
    // "views": every link has its totals row (made with the link; selectLinks joins it), walked on its (user, views,
    // link) index, most first.
    return selectLinks(
      db,
      and(live, sort === "views" ? eq(linkTotals.workspaceId, value("workspaceId")) : undefined, beyond),
    )
      .orderBy(desc(key), desc(id))
      .limit(value("limit"))
      .offset(value("offset"))
      .prepare();
  },
  ({ sort, words, after }) => `${sort} ${words} ${after}`,
);

/**
 * A page of the user's live links, each as `show` presents it (present.ts: the API's with lint warnings, the
 * dashboard's without), and the cursor of the next one (null on the last page).
 */
export async function listLinkPage<L>(
  deps: LinkDeps,
  workspace: Workspace,
  input: LinkPageInput,
  show: (row: LinkRow, userSlug: string, publicUrl: string) => L,
): Promise<LinkPage<L>> {
  const after = input.cursor ? decodeCursor(input.cursor) : null;
  const patterns = searchPatterns(input.q);
  const rows = await pageQuery(deps.database.db, {
    sort: input.sort,
    words: patterns.length,
    after: after !== null,
  }).execute({
    workspaceId: workspace.id,
    ...Object.fromEntries(patterns.map((p, i) => [`word${i}`, p])),
    afterKey: after && (input.sort === "views" ? after.key : new Date(after.key)),
    afterId: after?.id,
    limit: input.limit + 1,
    offset: input.offset ?? 0,
  });
  const shown = rows.slice(0, input.limit);
  const last = shown.at(-1);
  const next =
    rows.length > input.limit && last
      ? encodeCursor({
          key: input.sort === "views" ? last.viewsHuman + last.viewsBot : last.createdAt.getTime(),
          id: last.id,
        })
      : null;
  return { links: shown.map((row) => show(row, workspace.slug, deps.publicUrl)), next };
}
