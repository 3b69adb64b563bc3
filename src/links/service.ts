// Links: create, edit, delete, list, slugs, quotas and view statistics. Plain data in and out; every query is
// scoped to the owner's id; failures are AppErrors.
import { and, desc, eq, gte, inArray, like, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/connection.ts";
import { links, viewRollups, type Link, type User } from "../db/schema.ts";
import { entitlementFor } from "../billing/entitlement.ts";
import { AppError, badRequest, conflict, forbidden, notFound, paymentRequired } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import type { LinkCache } from "../redirect/link-cache.ts";
import { UPLOADS_PREFIX, type ImageStore, type StoredImage } from "./images/store.ts";
import { customLinkSlug, isHttpUrl, type LinkInput } from "./model.ts";
import { generateSlug, isReservedSlug } from "./slugs.ts";

export type LinkDeps = { db: Db; linkCache: LinkCache; images: ImageStore; publicUrl: string; billingEnabled: boolean };

const SLUG_TAKEN = "This custom URL is already taken";
const SLUG_RESERVED = "This custom URL is reserved";
const LINK_NOT_FOUND = "Link not found";

/** A link's all-time count of one kind, summed from its rollup rows (one per day and platform). */
const linkTotal = (column: typeof viewRollups.human | typeof viewRollups.bot) =>
  sql<number>`(SELECT coalesce(sum(${column}), 0) FROM ${viewRollups} WHERE ${viewRollups.linkId} = ${links.id})`;

const linkColumns = {
  id: links.id,
  linkSlug: links.linkSlug,
  targetUrl: links.targetUrl,
  title: links.title,
  description: links.description,
  imageUrl: links.imageUrl,
  imageSource: links.imageSource,
  viewsBot: linkTotal(viewRollups.bot),
  viewsHuman: linkTotal(viewRollups.human),
  createdAt: links.createdAt,
  deletedAt: links.deletedAt,
};

type LinkRow = {
  id: number;
  linkSlug: string;
  targetUrl: string;
  title: string;
  description: string;
  imageUrl: string | null;
  imageSource: string | null;
  viewsBot: number;
  viewsHuman: number;
  createdAt: Date;
  deletedAt: Date | null;
};

function present(row: LinkRow, userSlug: string, publicUrl: string) {
  const { deletedAt, ...rest } = row;
  return { ...rest, shortUrl: `${publicUrl}/go/${userSlug}/${row.linkSlug}`, ...(deletedAt ? { deletedAt } : {}) };
}

export type LinkView = ReturnType<typeof present>;

/** Links with their view counters; `where` must scope them to one user. */
function selectLinks(db: Db, where: SQL | undefined) {
  return db.select(linkColumns).from(links).where(where).$dynamic();
}

/** The user's live or deleted links, newest first; all of them, or one page. */
export function listLinks(deps: LinkDeps, user: User, which: "live" | "deleted", page?: { limit: number; offset: number }): LinkView[] {
  const query = selectLinks(deps.db, and(eq(links.userId, user.id), eq(links.deleted, which === "deleted"))).orderBy(
    which === "deleted" ? desc(links.deletedAt) : desc(links.createdAt),
    desc(links.id),
  );
  return (page ? query.limit(page.limit).offset(page.offset) : query).all().map((row) => present(row, user.userSlug, deps.publicUrl));
}

function findLiveLink(db: Db, userId: number, where: { slug: string } | { id: number }): Link | undefined {
  return db
    .select()
    .from(links)
    .where(and(eq(links.userId, userId), eq(links.deleted, false), "slug" in where ? eq(links.linkSlug, where.slug) : eq(links.id, where.id)))
    .get();
}

export function getLinkBySlug(deps: LinkDeps, user: User, slug: string): LinkView {
  const row = selectLinks(deps.db, and(eq(links.userId, user.id), eq(links.deleted, false), eq(links.linkSlug, slug))).get();
  if (!row) throw notFound(LINK_NOT_FOUND);
  return present(row, user.userSlug, deps.publicUrl);
}

const slugInUse = (db: Db, userId: number, slug: string) => findLiveLink(db, userId, { slug }) !== undefined;

/** A custom slug the user may take: their plan allows it, it is not ours, and it is free. */
function checkCustomSlug(deps: LinkDeps, user: User, slug: string): void {
  const { plan } = entitlementFor(deps.db, deps.billingEnabled, user.id);
  if (!plan.customSlugs) throw forbidden("Custom URLs are available on the Pro and Enterprise plans. Upgrade at /pricing.");
  if (isReservedSlug(slug)) throw badRequest(`customLinkSlug: ${SLUG_RESERVED}`, "customLinkSlug");
  if (slugInUse(deps.db, user.id, slug)) throw conflict(SLUG_TAKEN);
}

function checkTarget(deps: LinkDeps, targetUrl: string): void {
  const target = new URL(targetUrl);
  const ours = new URL(deps.publicUrl);
  if (target.host === ours.host && target.pathname.startsWith("/go/")) {
    throw badRequest("targetUrl: The target URL cannot be a LinkPrev short URL", "targetUrl");
  }
}

function checkExternalImage(imageUrl: string): void {
  if (!isHttpUrl(imageUrl)) throw badRequest("imageUrl: Image URL must be a valid http(s) URL", "imageUrl");
}

function requireActive(deps: LinkDeps, user: User) {
  const entitlement = entitlementFor(deps.db, deps.billingEnabled, user.id);
  if (!entitlement.active) throw paymentRequired("You need an active subscription to create or edit links. See the plans at /pricing.");
  return entitlement;
}

function checkQuota(deps: LinkDeps, user: User): void {
  const { plan } = requireActive(deps, user);
  if (plan.linkQuota === 0) return;
  const live = deps.db.select({ n: sql<number>`count(*)` }).from(links).where(and(eq(links.userId, user.id), eq(links.deleted, false))).get()!.n;
  if (live >= plan.linkQuota) {
    throw forbidden(`You have used all ${plan.linkQuota} links of the ${plan.name} plan. Delete a link or upgrade at /pricing.`);
  }
}

const isUniqueViolation = (error: unknown) => String((error as { code?: string })?.code ?? error).includes("SQLITE_CONSTRAINT_UNIQUE");

/** Runs `write` in an immediate transaction; an image stored for it is removed again if the write fails. */
function writeWithImage<T>(deps: LinkDeps, image: StoredImage | null, write: () => T): T {
  try {
    return deps.db.transaction(write, { behavior: "immediate" });
  } catch (error) {
    if (image) deps.images.remove(image.url);
    if (isUniqueViolation(error)) throw conflict(SLUG_TAKEN);
    throw error;
  }
}

/** Removes an upload once no live link shows it any more. */
function releaseImage(deps: LinkDeps, url: string | null): void {
  if (!url) return;
  const stillUsed = deps.db.select({ id: links.id }).from(links).where(and(eq(links.imageUrl, url), eq(links.deleted, false))).limit(1).get();
  if (!stillUsed) deps.images.remove(url);
}

/** Every upload a live link shows: what the start-up sweep of the uploads folder keeps (see releaseImage). */
export function uploadsInUse(db: Db): string[] {
  return db
    .select({ url: links.imageUrl })
    .from(links)
    .where(and(eq(links.deleted, false), like(links.imageUrl, `${UPLOADS_PREFIX}%`)))
    .all()
    .map((row) => row.url!);
}

async function storeUpload(deps: LinkDeps, file: File | null): Promise<StoredImage | null> {
  return file ? deps.images.save(await deps.images.prepare(file)) : null;
}

export async function createLink(deps: LinkDeps, user: User, input: LinkInput, file: File | null): Promise<LinkView> {
  checkQuota(deps, user);
  if (input.customLinkSlug) checkCustomSlug(deps, user, input.customLinkSlug);
  checkTarget(deps, input.targetUrl);
  if (!file && input.imageUrl) checkExternalImage(input.imageUrl);

  const image = await storeUpload(deps, file);
  const id = writeWithImage(deps, image, () => {
    // Checked again inside the transaction: other requests ran while the image was processed.
    checkQuota(deps, user);
    let slug = input.customLinkSlug;
    if (slug && slugInUse(deps.db, user.id, slug)) throw conflict(SLUG_TAKEN);
    for (let attempt = 0; !slug && attempt < 10; attempt++) {
      const candidate = generateSlug();
      if (!slugInUse(deps.db, user.id, candidate)) slug = candidate;
    }
    if (!slug) throw new AppError(503, "Could not find a free short URL. Please try again.");
    return deps.db
      .insert(links)
      .values({
        userId: user.id,
        linkSlug: slug,
        targetUrl: new URL(input.targetUrl).href,
        title: input.title,
        description: input.description,
        imageUrl: image?.url ?? input.imageUrl ?? null,
        imageSource: image ? "upload" : (input.imageSource ?? (input.imageUrl ? "upload" : null)),
        imageWidth: image?.width ?? null,
        imageHeight: image?.height ?? null,
      })
      .returning({ id: links.id, linkSlug: links.linkSlug })
      .get();
  });
  deps.linkCache.invalidate(user.userSlug, id.linkSlug);
  return getLinkBySlug(deps, user, id.linkSlug);
}

export async function updateLink(deps: LinkDeps, user: User, slug: string, input: LinkInput, file: File | null): Promise<LinkView> {
  const existing = findLiveLink(deps.db, user.id, { slug });
  if (!existing) throw notFound(LINK_NOT_FOUND);
  requireActive(deps, user);
  const newSlug = input.customLinkSlug ?? existing.linkSlug;
  if (newSlug !== existing.linkSlug) checkCustomSlug(deps, user, newSlug);
  checkTarget(deps, input.targetUrl);
  // No imageUrl field keeps the image; an empty one removes it; the current URL or an external one sets it.
  const keepImage = input.imageUrl === undefined || input.imageUrl === existing.imageUrl;
  if (!file && !keepImage && input.imageUrl) checkExternalImage(input.imageUrl);

  const image = await storeUpload(deps, file);
  const imageFields = image
    ? { imageUrl: image.url, imageSource: "upload" as const, imageWidth: image.width, imageHeight: image.height }
    : keepImage
      ? {}
      : { imageUrl: input.imageUrl ?? null, imageSource: input.imageUrl ? (input.imageSource ?? "upload") : null, imageWidth: null, imageHeight: null };
  writeWithImage(deps, image, () => {
    if (newSlug !== existing.linkSlug && slugInUse(deps.db, user.id, newSlug)) throw conflict(SLUG_TAKEN);
    deps.db
      .update(links)
      .set({ linkSlug: newSlug, targetUrl: new URL(input.targetUrl).href, title: input.title, description: input.description, ...imageFields, updatedAt: new Date() })
      .where(and(eq(links.id, existing.id), eq(links.userId, user.id)))
      .run();
  });
  if ("imageUrl" in imageFields && imageFields.imageUrl !== existing.imageUrl) releaseImage(deps, existing.imageUrl);
  deps.linkCache.invalidate(user.userSlug, existing.linkSlug);
  deps.linkCache.invalidate(user.userSlug, newSlug);
  return getLinkBySlug(deps, user, newSlug);
}

export function deleteLink(deps: LinkDeps, user: User, id: number): void {
  const existing = findLiveLink(deps.db, user.id, { id });
  if (!existing) throw notFound(LINK_NOT_FOUND);
  deps.db
    .update(links)
    .set({ deleted: true, deletedAt: new Date() })
    .where(and(eq(links.id, id), eq(links.userId, user.id), eq(links.deleted, false)))
    .run();
  deps.linkCache.invalidate(user.userSlug, existing.linkSlug);
  releaseImage(deps, existing.imageUrl);
}

export function checkSlugAvailability(deps: LinkDeps, user: User, slug: unknown): { available: boolean; message: string } {
  const candidate = parseInput(customLinkSlug.min(1, "Custom URL is required"), slug);
  if (isReservedSlug(candidate)) return { available: false, message: SLUG_RESERVED };
  if (slugInUse(deps.db, user.id, candidate)) return { available: false, message: SLUG_TAKEN };
  return { available: true, message: "Custom slug available" };
}

export function linkStats(deps: LinkDeps, user: User) {
  const liveLinks = and(eq(links.userId, user.id), eq(links.deleted, false));
  const totalLinks = deps.db.select({ n: sql<number>`count(*)` }).from(links).where(liveLinks).get()!.n;
  const views = deps.db
    .select({ human: sql<number>`coalesce(sum(${viewRollups.human}), 0)`, bot: sql<number>`coalesce(sum(${viewRollups.bot}), 0)` })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(liveLinks)
    .get()!;
  return { totalLinks, totalViews: views.human + views.bot, humanViews: views.human, botViews: views.bot };
}

const DAY_MS = 86_400_000;

/** The last `days` dates (UTC, YYYY-MM-DD), oldest first, today last. */
const lastDays = (days: number, now: number) => Array.from({ length: days }, (_, i) => new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));

/** One entry per date, zero where the rollup has no row. */
const zeroFilled = (dates: string[], rows: Map<string, { human: number; bot: number }>) =>
  dates.map((date) => ({ date, human: rows.get(date)?.human ?? 0, bot: rows.get(date)?.bot ?? 0 }));

/** Per-day human and bot views (zero-filled, oldest first) and the crawler platforms, from the rollups. */
export function linkViews(deps: LinkDeps, user: User, linkId: number, days: number, now = Date.now()) {
  const link = deps.db.select({ id: links.id }).from(links).where(and(eq(links.id, linkId), eq(links.userId, user.id))).get();
  if (!link) throw notFound(LINK_NOT_FOUND);
  const { series, platforms } = dashboardViews(deps, user, [linkId], days, now);
  return { days: series.get(linkId) ?? zeroFilled(lastDays(days, now), new Map()), platforms: platforms.get(linkId) ?? [] };
}

/** For the dashboard: the given links' last `days` days and platforms, in two queries on the rollups. */
export function dashboardViews(deps: LinkDeps, user: User, linkIds: number[], days: number, now = Date.now()) {
  const dates = lastDays(days, now);
  const owned = and(eq(links.userId, user.id), inArray(links.id, linkIds));
  const rows = deps.db
    .select({ linkId: viewRollups.linkId, day: viewRollups.day, human: sql<number>`sum(${viewRollups.human})`, bot: sql<number>`sum(${viewRollups.bot})` })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(and(owned, gte(viewRollups.day, dates[0]!)))
    .groupBy(viewRollups.linkId, viewRollups.day)
    .all();
  // All-time crawler counts by platform (people's rows have no platform).
  const count = sql<number>`sum(${viewRollups.bot})`;
  const platformRows = deps.db
    .select({ linkId: viewRollups.linkId, platform: viewRollups.platform, count })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(and(owned, ne(viewRollups.platform, "")))
    .groupBy(viewRollups.linkId, viewRollups.platform)
    .having(sql`${count} > 0`)
    .orderBy(desc(count), viewRollups.platform)
    .all();
  const byLink = new Map<number, Map<string, { human: number; bot: number }>>();
  for (const row of rows) byLink.set(row.linkId, (byLink.get(row.linkId) ?? new Map()).set(row.day, row));
  const series = new Map([...byLink].map(([linkId, byDay]) => [linkId, zeroFilled(dates, byDay)]));
  const platforms = new Map<number, Array<{ platform: string; count: number }>>();
  for (const row of platformRows) platforms.set(row.linkId, [...(platforms.get(row.linkId) ?? []), { platform: row.platform, count: row.count }]);
  return { series, platforms };
}
