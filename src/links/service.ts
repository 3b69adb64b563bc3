// Links: create, edit, delete, list, slugs, quotas and view statistics. Plain data in and out; every query is
// scoped to the owner's id; failures are AppErrors.
import { and, desc, eq, gte, inArray, like, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/connection.ts";
import type { Engine } from "../db/engine.ts";
import { links, users, viewRollups, type Link, type User } from "../db/tables.ts";
import { entitlementFor } from "../billing/entitlement.ts";
import { AppError, badRequest, conflict, forbidden, notFound, paymentRequired } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import { lintPreview, type LintInput } from "../previews/lint.ts";
import { MOCKUP_PLATFORMS, PLATFORM_IDS, PLATFORMS, refreshUrl, type PlatformId, type RefreshKind } from "../previews/platforms.ts";
import { UPLOADS_PREFIX, type ImageStore, type PreparedImage, type StoredImage } from "./images/store.ts";
import { customLinkSlug, isHttpUrl, RequestedSlug, type LinkInput } from "./model.ts";
import { generateSlug, isReservedSlug } from "./slugs.ts";

export type LinkDeps = { db: Db; engine: Engine; images: ImageStore; publicUrl: string; billingEnabled: boolean };

const SLUG_TAKEN = "This custom URL is already taken";
const SLUG_RESERVED = "This custom URL is reserved";
const LINK_NOT_FOUND = "Link not found";

/** A sum as a JS number on both engines (PostgreSQL's sum and count are bigint or numeric, read as text). */
const total = (expression: SQL) => sql<number>`coalesce(${expression}, 0)`.mapWith(Number);

/** A link's all-time count of one kind, summed from its rollup rows (one per day, platform and node slot). */
const linkTotal = (column: typeof viewRollups.human | typeof viewRollups.bot) =>
  total(sql`(SELECT sum(${column}) FROM ${viewRollups} WHERE ${viewRollups.linkId} = ${links.id})`);

const linkColumns = () => ({
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
  viewsBot: linkTotal(viewRollups.bot),
  viewsHuman: linkTotal(viewRollups.human),
  createdAt: links.createdAt,
  deletedAt: links.deletedAt,
});

type LinkRow = {
  id: number;
  linkSlug: string;
  targetUrl: string;
  title: string;
  description: string;
  imageUrl: string | null;
  imageSource: string | null;
  imageBytes: number | null;
  imageSourceWidth: number | null;
  imageSourceHeight: number | null;
  imageSourceBytes: number | null;
  viewsBot: number;
  viewsHuman: number;
  createdAt: Date;
  deletedAt: Date | null;
};

/** The uploaded file's recorded size, when the link shows an upload (null for an external image or none). */
function sourceImageOf(row: Pick<LinkRow, "imageSourceWidth" | "imageSourceHeight" | "imageSourceBytes" | "imageBytes">) {
  const { imageSourceWidth: width, imageSourceHeight: height, imageSourceBytes: bytes } = row;
  return width !== null && height !== null && bytes !== null ? { width, height, bytes, servedBytes: row.imageBytes } : null;
}

function present(row: LinkRow, userSlug: string, publicUrl: string) {
  const { deletedAt, imageBytes: _imageBytes, imageSourceWidth: _w, imageSourceHeight: _h, imageSourceBytes: _b, ...rest } = row;
  const source = sourceImageOf(row);
  const warnings = lintPreview({ title: row.title, description: row.description, imageUrl: row.imageUrl, image: source });
  return {
    ...rest,
    shortUrl: `${publicUrl}/go/${userSlug}/${row.linkSlug}`,
    sourceImage: source ? { width: source.width, height: source.height, bytes: source.bytes } : null,
    warnings,
    ...(deletedAt ? { deletedAt } : {}),
  };
}

export type LinkView = ReturnType<typeof present>;

/** Links with their view counters; `where` must scope them to one user. */
function selectLinks(db: Db, where: SQL | undefined) {
  return db.select(linkColumns()).from(links).where(where).$dynamic();
}

/** The user's live or deleted links, newest first; all of them, or one page. */
export async function listLinks(deps: LinkDeps, user: User, which: "live" | "deleted", page?: { limit: number; offset: number }): Promise<LinkView[]> {
  const query = selectLinks(deps.db, and(eq(links.userId, user.id), eq(links.deleted, which === "deleted"))).orderBy(
    which === "deleted" ? desc(links.deletedAt) : desc(links.createdAt),
    desc(links.id),
  );
  return (await (page ? query.limit(page.limit).offset(page.offset) : query)).map((row) => present(row, user.userSlug, deps.publicUrl));
}

async function findLiveLink(db: Db, userId: number, where: { slug: string } | { id: number }): Promise<Link | undefined> {
  const [row] = await db
    .select()
    .from(links)
    .where(and(eq(links.userId, userId), eq(links.deleted, false), "slug" in where ? eq(links.linkSlug, where.slug) : eq(links.id, where.id)));
  return row;
}

export async function getLinkBySlug(deps: LinkDeps, user: User, slug: string): Promise<LinkView> {
  const [row] = await selectLinks(deps.db, and(eq(links.userId, user.id), eq(links.deleted, false), eq(links.linkSlug, slug)));
  if (!row) throw notFound(LINK_NOT_FOUND);
  return present(row, user.userSlug, deps.publicUrl);
}

const slugInUse = async (db: Db, userId: number, slug: string) => (await findLiveLink(db, userId, { slug })) !== undefined;

/** A custom slug the user may take: their plan allows it, it is not ours, and it is free. */
async function checkCustomSlug(deps: LinkDeps, user: User, slug: string): Promise<void> {
  const { plan } = await entitlementFor(deps.db, deps.billingEnabled, user.id);
  if (!plan.customSlugs) throw forbidden("Custom URLs are available on the Pro and Enterprise plans. Upgrade at /pricing.");
  if (isReservedSlug(slug)) throw badRequest(`customLinkSlug: ${SLUG_RESERVED}`, "customLinkSlug");
  if (await slugInUse(deps.db, user.id, slug)) throw conflict(SLUG_TAKEN);
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

async function requireActive(db: Db, deps: LinkDeps, user: User) {
  const entitlement = await entitlementFor(db, deps.billingEnabled, user.id);
  if (!entitlement.active) throw paymentRequired("You need an active subscription to create or edit links. See the plans at /pricing.");
  return entitlement;
}

async function checkQuota(db: Db, deps: LinkDeps, user: User): Promise<void> {
  const { plan } = await requireActive(db, deps, user);
  if (plan.linkQuota === 0) return;
  const [{ live }] = await db.select({ live: total(sql`count(*)`) }).from(links).where(and(eq(links.userId, user.id), eq(links.deleted, false)));
  if (live >= plan.linkQuota) {
    throw forbidden(`You have used all ${plan.linkQuota} links of the ${plan.name} plan. Delete a link or upgrade at /pricing.`);
  }
}

/**
 * Runs `write` in a transaction; an image stored for it is removed again if the write fails. Once it has
 * committed, every link cache (other threads and nodes included) drops the short addresses it changed.
 */
async function writeWithImage<T>(deps: LinkDeps, image: StoredImage | null, write: (tx: Db) => Promise<{ result: T; changed: string[] }>): Promise<T> {
  let written: { result: T; changed: string[] };
  try {
    written = await deps.engine.transaction(write);
  } catch (error) {
    if (image) await deps.images.remove(image.url);
    if (deps.engine.isUniqueViolation(error)) throw conflict(SLUG_TAKEN);
    throw error;
  }
  for (const key of written.changed) await deps.engine.announceLinkChange(key);
  return written.result;
}

/** Removes an upload once no live link shows it any more. */
async function releaseImage(deps: LinkDeps, url: string | null): Promise<void> {
  if (!url) return;
  const stillUsed = await deps.db.select({ id: links.id }).from(links).where(and(eq(links.imageUrl, url), eq(links.deleted, false))).limit(1);
  if (stillUsed.length === 0) await deps.images.remove(url);
}

/** Every upload a live link shows: what the start-up sweep of the uploads folder keeps (see releaseImage). */
export async function uploadsInUse(db: Db): Promise<string[]> {
  const rows = await db
    .select({ url: links.imageUrl })
    .from(links)
    .where(and(eq(links.deleted, false), like(links.imageUrl, `${UPLOADS_PREFIX}%`)));
  return rows.map((row) => row.url!);
}

const shortAddress = (user: User, linkSlug: string) => `${user.userSlug}/${linkSlug}`;

/** The stored upload's size and its source's, for the preview lint; all null without an upload. */
const uploadFields = (image: StoredImage | null) => ({
  imageWidth: image?.width ?? null,
  imageHeight: image?.height ?? null,
  imageBytes: image?.bytes ?? null,
  imageSourceWidth: image?.source.width ?? null,
  imageSourceHeight: image?.source.height ?? null,
  imageSourceBytes: image?.source.bytes ?? null,
});

async function storeUpload(deps: LinkDeps, file: File | null): Promise<StoredImage | null> {
  return file ? deps.images.save(await deps.images.prepare(file)) : null;
}

export async function createLink(deps: LinkDeps, user: User, input: LinkInput, file: File | null): Promise<LinkView> {
  await checkQuota(deps.db, deps, user);
  if (input.customLinkSlug) await checkCustomSlug(deps, user, input.customLinkSlug);
  checkTarget(deps, input.targetUrl);
  if (!file && input.imageUrl) checkExternalImage(input.imageUrl);

  const image = await storeUpload(deps, file);
  const linkSlug = await writeWithImage(deps, image, async (tx) => {
    // The user's row lock first: PostgreSQL runs transactions side by side (READ COMMITTED), so without it
    // concurrent creates each count the same links and all insert. A no-op write; on SQLite the write lock
    // already serialises. Then checked again: other requests ran while the image was processed.
    await tx.update(users).set({ updatedAt: sql`${users.updatedAt}` }).where(eq(users.id, user.id));
    await checkQuota(tx, deps, user);
    let slug = input.customLinkSlug;
    if (slug && (await slugInUse(tx, user.id, slug))) throw conflict(SLUG_TAKEN);
    for (let attempt = 0; !slug && attempt < 10; attempt++) {
      const candidate = generateSlug();
      if (!(await slugInUse(tx, user.id, candidate))) slug = candidate;
    }
    if (!slug) throw new AppError(503, "Could not find a free short URL. Please try again.");
    await tx
      .insert(links)
      .values({
        userId: user.id,
        linkSlug: slug,
        targetUrl: new URL(input.targetUrl).href,
        title: input.title,
        description: input.description,
        imageUrl: image?.url ?? input.imageUrl ?? null,
        imageSource: image ? "upload" : (input.imageSource ?? (input.imageUrl ? "upload" : null)),
        ...uploadFields(image),
        cardUpdatedAt: new Date(),
      });
    // A cache may hold "not found" for this address.
    return { result: slug, changed: [shortAddress(user, slug)] };
  });
  return getLinkBySlug(deps, user, linkSlug);
}

/**
 * POST /api/links/lint: the warnings a create with these fields would carry. Checked as a create is; an uploaded
 * image is decoded and measured like one, but nothing is stored.
 */
export async function lintLink(deps: LinkDeps, input: LinkInput, file: File | null): Promise<{ warnings: ReturnType<typeof lintPreview> }> {
  checkTarget(deps, input.targetUrl);
  if (!file && input.imageUrl) checkExternalImage(input.imageUrl);
  const prepared: PreparedImage | null = file ? await deps.images.prepare(file) : null;
  const card: LintInput = {
    title: input.title,
    description: input.description,
    imageUrl: prepared ? null : (input.imageUrl ?? null),
    image: prepared ? { ...prepared.source, servedBytes: prepared.jpeg.byteLength } : null,
  };
  return { warnings: lintPreview(card) };
}

export async function updateLink(deps: LinkDeps, user: User, slug: string, input: LinkInput, file: File | null): Promise<LinkView> {
  const existing = await findLiveLink(deps.db, user.id, { slug });
  if (!existing) throw notFound(LINK_NOT_FOUND);
  await requireActive(deps.db, deps, user);
  const newSlug = input.customLinkSlug ?? existing.linkSlug;
  if (newSlug !== existing.linkSlug) await checkCustomSlug(deps, user, newSlug);
  checkTarget(deps, input.targetUrl);
  // No imageUrl field keeps the image; an empty one removes it; the current URL or an external one sets it.
  const keepImage = input.imageUrl === undefined || input.imageUrl === existing.imageUrl;
  if (!file && !keepImage && input.imageUrl) checkExternalImage(input.imageUrl);

  const image = await storeUpload(deps, file);
  const imageFields = image
    ? { imageUrl: image.url, imageSource: "upload" as const, ...uploadFields(image) }
    : keepImage
      ? {}
      : { imageUrl: input.imageUrl ?? null, imageSource: input.imageUrl ? (input.imageSource ?? "upload") : null, ...uploadFields(null) };
  // A new card (what platforms cache) when its title, description or image changes; the target alone is not one.
  const cardChanged =
    input.title !== existing.title || input.description !== existing.description || ("imageUrl" in imageFields && imageFields.imageUrl !== existing.imageUrl);
  const now = new Date();
  await writeWithImage(deps, image, async (tx) => {
    if (newSlug !== existing.linkSlug && (await slugInUse(tx, user.id, newSlug))) throw conflict(SLUG_TAKEN);
    await tx
      .update(links)
      .set({
        linkSlug: newSlug,
        targetUrl: new URL(input.targetUrl).href,
        title: input.title,
        description: input.description,
        ...imageFields,
        updatedAt: now,
        ...(cardChanged ? { cardUpdatedAt: now } : {}),
      })
      .where(and(eq(links.id, existing.id), eq(links.userId, user.id)));
    return { result: undefined, changed: [shortAddress(user, existing.linkSlug), shortAddress(user, newSlug)] };
  });
  if ("imageUrl" in imageFields && imageFields.imageUrl !== existing.imageUrl) await releaseImage(deps, existing.imageUrl);
  return getLinkBySlug(deps, user, newSlug);
}

export async function deleteLink(deps: LinkDeps, user: User, id: number): Promise<void> {
  const existing = await findLiveLink(deps.db, user.id, { id });
  if (!existing) throw notFound(LINK_NOT_FOUND);
  await deps.db
    .update(links)
    .set({ deleted: true, deletedAt: new Date() })
    .where(and(eq(links.id, id), eq(links.userId, user.id), eq(links.deleted, false)));
  await deps.engine.announceLinkChange(shortAddress(user, existing.linkSlug));
  await releaseImage(deps, existing.imageUrl);
}

export async function checkSlugAvailability(deps: LinkDeps, user: User, slug: unknown): Promise<{ available: boolean; message: string }> {
  const candidate = parseInput(RequestedSlug, slug);
  if (isReservedSlug(candidate)) return { available: false, message: SLUG_RESERVED };
  if (await slugInUse(deps.db, user.id, candidate)) return { available: false, message: SLUG_TAKEN };
  return { available: true, message: "Custom slug available" };
}

export async function linkStats(deps: LinkDeps, user: User) {
  const liveLinks = and(eq(links.userId, user.id), eq(links.deleted, false));
  const [{ totalLinks }] = await deps.db.select({ totalLinks: total(sql`count(*)`) }).from(links).where(liveLinks);
  const [views] = await deps.db
    .select({ human: total(sql`sum(${viewRollups.human})`), bot: total(sql`sum(${viewRollups.bot})`) })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(liveLinks);
  return { totalLinks, totalViews: views!.human + views!.bot, humanViews: views!.human, botViews: views!.bot };
}

const DAY_MS = 86_400_000;

/** The last `days` dates (UTC, YYYY-MM-DD), oldest first, today last. */
const lastDays = (days: number, now: number) => Array.from({ length: days }, (_, i) => new Date(now - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));

/** One entry per date, zero where the rollup has no row. */
const zeroFilled = (dates: string[], rows: Map<string, { human: number; bot: number }>) =>
  dates.map((date) => ({ date, human: rows.get(date)?.human ?? 0, bot: rows.get(date)?.bot ?? 0 }));

/** Per-day human and bot views (zero-filled, oldest first) and the crawler platforms, from the rollups. */
export async function linkViews(deps: LinkDeps, user: User, linkId: number, days: number, now = Date.now()) {
  const [link] = await deps.db.select({ id: links.id }).from(links).where(and(eq(links.id, linkId), eq(links.userId, user.id)));
  if (!link) throw notFound(LINK_NOT_FOUND);
  const { series, platforms } = await dashboardViews(deps, user, [linkId], days, now);
  return { days: series.get(linkId) ?? zeroFilled(lastDays(days, now), new Map()), platforms: platforms.get(linkId) ?? [] };
}

/** For the dashboard: the given links' last `days` days and platforms, in two queries on the rollups. */
export async function dashboardViews(deps: LinkDeps, user: User, linkIds: number[], days: number, now = Date.now()) {
  const dates = lastDays(days, now);
  const owned = and(eq(links.userId, user.id), inArray(links.id, linkIds));
  const rows = await deps.db
    .select({ linkId: viewRollups.linkId, day: viewRollups.day, human: total(sql`sum(${viewRollups.human})`), bot: total(sql`sum(${viewRollups.bot})`) })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(and(owned, gte(viewRollups.day, dates[0]!)))
    .groupBy(viewRollups.linkId, viewRollups.day);
  // All-time crawler counts by platform (people's rows have no platform).
  const count = total(sql`sum(${viewRollups.bot})`);
  const platformRows = await deps.db
    .select({ linkId: viewRollups.linkId, platform: viewRollups.platform, count })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(and(owned, ne(viewRollups.platform, "")))
    .groupBy(viewRollups.linkId, viewRollups.platform)
    .having(sql`${count} > 0`)
    .orderBy(desc(count), viewRollups.platform);
  const byLink = new Map<number, Map<string, { human: number; bot: number }>>();
  for (const row of rows) byLink.set(row.linkId, (byLink.get(row.linkId) ?? new Map()).set(row.day, row));
  const series = new Map([...byLink].map(([linkId, byDay]) => [linkId, zeroFilled(dates, byDay)]));
  const platforms = new Map<number, Array<{ platform: string; count: number }>>();
  for (const row of platformRows) platforms.set(row.linkId, [...(platforms.get(row.linkId) ?? []), { platform: row.platform, count: row.count }]);
  return { series, platforms };
}

/** Platforms listed by GET /api/links/:id/platforms: the ones with mockups first, then any other that fetched. */
const LISTED_PLATFORMS: readonly PlatformId[] = MOCKUP_PLATFORMS;

/**
 * GET /api/links/:id/platforms: per platform, how often its crawler fetched the card (all time), when last, and
 * whether that was before the card last changed (it may still show the old one), with the way to refresh it.
 * Read from the rollups alone: the view writer keeps `last_at` as it counts.
 */
export async function linkPlatforms(deps: LinkDeps, user: User, linkId: number) {
  const [link] = await deps.db
    .select({ linkSlug: links.linkSlug, createdAt: links.createdAt, cardUpdatedAt: links.cardUpdatedAt })
    .from(links)
    .where(and(eq(links.id, linkId), eq(links.userId, user.id), eq(links.deleted, false)));
  if (!link) throw notFound(LINK_NOT_FOUND);
  const fetches = total(sql`sum(${viewRollups.bot})`);
  const rows = await deps.db
    .select({ platform: viewRollups.platform, fetches, lastAt: sql<Date | null>`max(${viewRollups.lastAt})`.mapWith(viewRollups.lastAt) })
    .from(viewRollups)
    .where(and(eq(viewRollups.linkId, linkId), ne(viewRollups.platform, "")))
    .groupBy(viewRollups.platform);
  const cardUpdatedAt = link.cardUpdatedAt ?? link.createdAt;
  const shortUrl = `${deps.publicUrl}/go/${user.userSlug}/${link.linkSlug}`;
  const fetched = new Map(rows.map((row) => [row.platform, { fetches: row.fetches, lastAt: row.lastAt }]));
  // The mockup platforms always; any other platform platforms.ts knows once it has fetched the card (a crawler
  // it has no facts for is left out).
  const listed = [...LISTED_PLATFORMS, ...PLATFORM_IDS.filter((id) => !LISTED_PLATFORMS.includes(id) && fetched.has(id))];
  const platforms = listed.map((id) => {
    const facts = PLATFORMS[id];
    const seen = fetched.get(id);
    const lastFetchedAt = seen?.lastAt ?? null;
    return {
      platform: id,
      name: facts.name,
      fetches: seen?.fetches ?? 0,
      lastFetchedAt,
      stale: lastFetchedAt !== null && lastFetchedAt.getTime() < cardUpdatedAt.getTime(),
      cacheNote: facts.cache.note,
      refresh: { kind: facts.refresh.kind as RefreshKind, url: refreshUrl(id, shortUrl), note: facts.refresh.note },
    };
  });
  return { cardUpdatedAt, platforms };
}

