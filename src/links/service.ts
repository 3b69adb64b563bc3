// Links: create, edit, delete, list, slugs, quotas and view statistics. Plain data in and out; every query is
// scoped to the owner's id; failures are AppErrors.
import { and, desc, eq, gte, inArray, isNull, like, lte, ne, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/connection.ts";
import type { Engine } from "../db/engine.ts";
import { links, users, viewRollups, type Link, type User } from "../db/tables.ts";
import { entitlementFor } from "../billing/entitlement.ts";
import { AppError, badRequest, conflict, forbidden, notFound, paymentRequired } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import type { FacebookRescraper } from "../previews/facebook-scrape.ts";
import { lintPreview, type LintInput } from "../previews/lint.ts";
import { MOCKUP_PLATFORMS, PLATFORM_IDS, PLATFORMS, refreshUrl, type PlatformId, type RefreshKind } from "../previews/platforms.ts";
import type { FetchedImage, SafeFetcher } from "../safe-fetch/fetcher.ts";
import type { RenditionId } from "../previews/variants.ts";
import type { Focal } from "./images/normalise.ts";
import { ImageTooLarge, MAX_IMAGE_BYTES, UPLOADS_PREFIX, type ImageStore, type PreparedImage, type StoredImage, type StoredRenditions } from "./images/store.ts";
import { qrPng, qrSvg, qrUrl } from "./qr.ts";
import { customLinkSlug, isHttpUrl, RequestedSlug, type LinkInput } from "./model.ts";
import { generateSlug, isReservedSlug } from "./slugs.ts";
import { shortUrlOf } from "./url.ts";

export type LinkDeps = {
  db: Db;
  engine: Engine;
  images: ImageStore;
  publicUrl: string;
  /** Whether a URL leads back to this instance (src/links/own-addresses.ts): such a target would loop. */
  leadsHere: (url: URL) => boolean;
  billingEnabled: boolean;
  /** Asks Facebook to re-scrape a changed card; null when FACEBOOK_APP_ID is not set. */
  facebook: FacebookRescraper | null;
  /** Imports images named by imageImportUrl; null when fetching is turned off (FETCH_DISABLED). */
  fetcher: SafeFetcher | null;
};

const SLUG_TAKEN = "This custom URL is already taken";
const SLUG_RESERVED = "This custom URL is reserved";
const LINK_NOT_FOUND = "Link not found";

/** A sum as a JS number on both engines (PostgreSQL's sum and count are bigint or numeric, read as text). */
const total = (expression: SQL) => sql<number>`coalesce(${expression}, 0)`.mapWith(Number);

/**
 * A link's all-time count of one kind, summed from its rollup rows (one per day, platform and node slot).
 * For unique visitors that is the sum of the daily counts ("daily unique visitors, summed").
 */
const linkTotal = (column: typeof viewRollups.human | typeof viewRollups.bot | typeof viewRollups.scans | typeof viewRollups.uniqueHumans) =>
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
  imageSourceUrl: links.imageSourceUrl,
  imageSquareUrl: links.imageSquareUrl,
  imageXUrl: links.imageXUrl,
  focalX: links.focalX,
  focalY: links.focalY,
  xTitle: links.xTitle,
  whatsappDescription: links.whatsappDescription,
  viewsBot: linkTotal(viewRollups.bot),
  viewsHuman: linkTotal(viewRollups.human),
  version: links.version,
  uniqueHumans: linkTotal(viewRollups.uniqueHumans),
  scans: linkTotal(viewRollups.scans),
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
  imageSourceUrl: string | null;
  imageSquareUrl: string | null;
  imageXUrl: string | null;
  focalX: number;
  focalY: number;
  xTitle: string | null;
  whatsappDescription: string | null;
  viewsBot: number;
  viewsHuman: number;
  version: number;
  uniqueHumans: number;
  scans: number;
  createdAt: Date;
  deletedAt: Date | null;
};

/** The uploaded file's recorded size, when the link shows an upload (null for an external image or none). */
function sourceImageOf(row: Pick<LinkRow, "imageSourceWidth" | "imageSourceHeight" | "imageSourceBytes" | "imageBytes">) {
  const { imageSourceWidth: width, imageSourceHeight: height, imageSourceBytes: bytes } = row;
  return width !== null && height !== null && bytes !== null ? { width, height, bytes, servedBytes: row.imageBytes } : null;
}

/**
 * The image each rendition shows: an upload's own renditions; the one image for all of them when the link has no
 * renditions (an external image, or an upload from before variants); null without an image.
 */
const imagesOf = (row: Pick<LinkRow, "imageUrl" | "imageSquareUrl" | "imageXUrl">): Record<RenditionId, string | null> => ({
  wide: row.imageUrl,
  square: row.imageUrl && (row.imageSquareUrl ?? row.imageUrl),
  x: row.imageUrl && (row.imageXUrl ?? row.imageUrl),
});

function present(row: LinkRow, userSlug: string, publicUrl: string) {
  const {
    deletedAt,
    imageBytes: _imageBytes,
    imageSourceWidth: _w,
    imageSourceHeight: _h,
    imageSourceBytes: _b,
    imageSourceUrl,
    imageSquareUrl: _square,
    imageXUrl: _x,
    xTitle,
    whatsappDescription,
    ...rest
  } = row;
  const source = sourceImageOf(row);
  const warnings = lintPreview({ title: row.title, description: row.description, imageUrl: row.imageUrl, image: source });
  return {
    ...rest,
    shortUrl: shortUrlOf(publicUrl, userSlug, row.linkSlug),
    // The address to share now: the newest version's (a platform that cached the card sees a new URL).
    currentShortUrl: shortUrlOf(publicUrl, userSlug, row.linkSlug, row.version),
    // url: the kept upright source the focal point is picked on (null for a link from before variants).
    sourceImage: source ? { width: source.width, height: source.height, bytes: source.bytes, url: imageSourceUrl } : null,
    images: imagesOf(row),
    variants: { x: { title: xTitle }, whatsapp: { description: whatsappDescription } },
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
  // Any address of this server, not only /go/: other names of it, and custom domains, serve short links too.
  if (deps.leadsHere(new URL(targetUrl))) {
    throw badRequest("targetUrl: The target URL cannot be a LinkPrev short URL or another address of this server", "targetUrl");
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
 * Runs `write` in a transaction; the uploads stored for it (`fresh`, URLs) are removed again if the write fails.
 * Once it has committed, every link cache (other threads and nodes included) drops the short addresses it changed.
 */
async function writeWithImage<T>(deps: LinkDeps, fresh: string[], write: (tx: Db) => Promise<{ result: T; changed: string[] }>): Promise<T> {
  let written: { result: T; changed: string[] };
  try {
    written = await deps.engine.transaction(write);
  } catch (error) {
    await deps.images.removeAll(fresh);
    if (deps.engine.isUniqueViolation(error)) throw conflict(SLUG_TAKEN);
    throw error;
  }
  for (const key of written.changed) await deps.engine.announceLinkChange(key);
  return written.result;
}

/** Where a link keeps upload URLs: the wide rendition (imageUrl), the kept source and the other renditions. */
const UPLOAD_COLUMNS = [links.imageUrl, links.imageSourceUrl, links.imageSquareUrl, links.imageXUrl] as const;
type UploadUrls = Pick<Link, "imageUrl" | "imageSourceUrl" | "imageSquareUrl" | "imageXUrl">;
const uploadUrlsOf = (row: UploadUrls): string[] =>
  [row.imageUrl, row.imageSourceUrl, row.imageSquareUrl, row.imageXUrl].filter((url): url is string => url !== null && url.startsWith(UPLOADS_PREFIX));

/** Removes the uploads in `urls` that no live link shows any more. */
async function releaseImages(deps: LinkDeps, urls: string[]): Promise<void> {
  for (const url of urls) {
    const stillUsed = await deps.db
      .select({ id: links.id })
      .from(links)
      .where(and(eq(links.deleted, false), or(...UPLOAD_COLUMNS.map((column) => eq(column, url)))))
      .limit(1);
    if (stillUsed.length === 0) await deps.images.remove(url);
  }
}

/** Every upload a live link uses (renditions and kept sources): what the start-up sweep of the uploads keeps (see releaseImages). */
export async function uploadsInUse(db: Db): Promise<string[]> {
  const rows = await db
    .select({ imageUrl: links.imageUrl, imageSourceUrl: links.imageSourceUrl, imageSquareUrl: links.imageSquareUrl, imageXUrl: links.imageXUrl })
    .from(links)
    .where(and(eq(links.deleted, false), or(...UPLOAD_COLUMNS.map((column) => like(column, `${UPLOADS_PREFIX}%`)))));
  return rows.flatMap(uploadUrlsOf);
}

const shortAddress = (user: User, linkSlug: string) => `${user.userSlug}/${linkSlug}`;

/** The stored upload's renditions, kept source and sizes (the preview lint reads them); all null without an upload. */
const uploadFields = (image: StoredImage | null) => ({
  imageSourceUrl: image?.sourceUrl ?? null,
  imageSquareUrl: image?.urls.square ?? null,
  imageXUrl: image?.urls.x ?? null,
  imageWidth: image?.width ?? null,
  imageHeight: image?.height ?? null,
  imageBytes: image?.bytes ?? null,
  imageSourceWidth: image?.source.width ?? null,
  imageSourceHeight: image?.source.height ?? null,
  imageSourceBytes: image?.source.bytes ?? null,
});

/**
 * An image from the web, fetched through the safe fetcher and normalised exactly as an upload of the same bytes
 * would be. Refusals, and bytes that are no JPEG, PNG or WebP, are 422s naming imageImportUrl.
 */
async function importImage(deps: LinkDeps, url: string, focal: Focal): Promise<PreparedImage> {
  if (!deps.fetcher) throw badRequest("imageImportUrl: Importing images is turned off on this server", "imageImportUrl");
  let fetched: FetchedImage | undefined;
  try {
    fetched = await deps.fetcher.fetchImage(url, MAX_IMAGE_BYTES);
    return await deps.images.prepare(new File([fetched.bytes], "imported", { type: fetched.contentType }), focal);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Too many pixels is the same 400 an upload of those bytes gets, not a failed fetch.
    if (error instanceof ImageTooLarge) throw badRequest(`imageImportUrl: ${error.message}`, "imageImportUrl");
    const reason = fetched ? "The image at that address is not a JPEG, PNG or WebP image" : error.message;
    throw new AppError(422, `imageImportUrl: ${reason}`, "imageImportUrl");
  }
}

/** New renditions in place of a link's current ones. */
const renditionFields = (stored: StoredRenditions) => ({ imageUrl: stored.urls.wide, imageSquareUrl: stored.urls.square, imageXUrl: stored.urls.x, imageBytes: stored.wideBytes });

const CENTRE = 0.5;

/** The uploaded file, or the imported image, stored with its renditions cut around `focal`; null when the input brings neither. */
async function storeUpload(deps: LinkDeps, file: File | null, importUrl: string | null | undefined, focal: Focal): Promise<StoredImage | null> {
  if (file && importUrl) throw badRequest("imageImportUrl: Upload an image or import one from an address, not both", "imageImportUrl");
  if (file) return deps.images.save(await deps.images.prepare(file, focal));
  return importUrl ? deps.images.save(await importImage(deps, importUrl, focal)) : null;
}

export async function createLink(deps: LinkDeps, user: User, input: LinkInput, file: File | null): Promise<LinkView> {
  await checkQuota(deps.db, deps, user);
  if (input.customLinkSlug) await checkCustomSlug(deps, user, input.customLinkSlug);
  checkTarget(deps, input.targetUrl);
  if (!file && !input.imageImportUrl && input.imageUrl) checkExternalImage(input.imageUrl);

  const focal = { x: input.focalX ?? CENTRE, y: input.focalY ?? CENTRE };
  const image = await storeUpload(deps, file, input.imageImportUrl, focal);
  const linkSlug = await writeWithImage(deps, image ? uploadUrlsOf({ imageUrl: image.url, ...uploadFields(image) }) : [], async (tx) => {
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
        focalX: focal.x,
        focalY: focal.y,
        xTitle: input.variants?.x?.title ?? null,
        whatsappDescription: input.variants?.whatsapp?.description ?? null,
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
  const prepared: PreparedImage | null = file ? await deps.images.prepare(file, { x: input.focalX ?? CENTRE, y: input.focalY ?? CENTRE }) : null;
  const card: LintInput = {
    title: input.title,
    description: input.description,
    imageUrl: prepared ? null : (input.imageUrl ?? null),
    image: prepared ? { ...prepared.source, servedBytes: prepared.renditions.wide.byteLength } : null,
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
  if (!file && !input.imageImportUrl && !keepImage && input.imageUrl) checkExternalImage(input.imageUrl);

  // A new image (uploaded or imported) is cut around the focal point given, else the centre; otherwise the focal point given, else the current one.
  const newImage = file !== null || Boolean(input.imageImportUrl);
  const focal = { x: input.focalX ?? (newImage ? CENTRE : existing.focalX), y: input.focalY ?? (newImage ? CENTRE : existing.focalY) };
  const focalMoved = focal.x !== existing.focalX || focal.y !== existing.focalY;
  const image = await storeUpload(deps, file, input.imageImportUrl, focal);
  // Only the focal point moved: new renditions from the kept source, no new upload. A link from before
  // variants has no kept source: it keeps its one image until a new upload.
  const recut = !newImage && keepImage && focalMoved && existing.imageSourceUrl ? await deps.images.rerender(existing.imageSourceUrl, focal) : null;
  if (!newImage && keepImage && focalMoved && existing.imageSourceUrl && !recut) throw conflict("The image's source is missing: upload the image again to move its focal point");
  const imageFields = image
    ? { imageUrl: image.url, imageSource: "upload" as const, ...uploadFields(image) }
    : recut
      ? renditionFields(recut)
      : keepImage
        ? {}
        : { imageUrl: input.imageUrl ?? null, imageSource: input.imageUrl ? (input.imageSource ?? "upload") : null, ...uploadFields(null) };
  const fresh = image ? uploadUrlsOf({ imageUrl: image.url, ...uploadFields(image) }) : recut ? Object.values(recut.urls) : [];
  const xTitle = input.variants?.x ? (input.variants.x.title ?? null) : existing.xTitle;
  const whatsappDescription = input.variants?.whatsapp ? (input.variants.whatsapp.description ?? null) : existing.whatsappDescription;
  const after: UploadUrls = { ...existing, ...imageFields };
  // A new card (what platforms cache) when its title, description, image, crop or a platform's text changes; the target alone is not one.
  const cardChanged =
    input.title !== existing.title ||
    input.description !== existing.description ||
    after.imageUrl !== existing.imageUrl ||
    xTitle !== existing.xTitle ||
    whatsappDescription !== existing.whatsappDescription;
  const now = new Date();
  await writeWithImage(deps, fresh, async (tx) => {
    if (newSlug !== existing.linkSlug && (await slugInUse(tx, user.id, newSlug))) throw conflict(SLUG_TAKEN);
    await tx
      .update(links)
      .set({
        linkSlug: newSlug,
        targetUrl: new URL(input.targetUrl).href,
        title: input.title,
        description: input.description,
        ...imageFields,
        focalX: focal.x,
        focalY: focal.y,
        xTitle,
        whatsappDescription,
        updatedAt: now,
        ...(cardChanged ? { cardUpdatedAt: now } : {}),
      })
      .where(and(eq(links.id, existing.id), eq(links.userId, user.id)));
    return { result: undefined, changed: [shortAddress(user, existing.linkSlug), shortAddress(user, newSlug)] };
  });
  const kept = new Set(uploadUrlsOf(after));
  await releaseImages(deps, uploadUrlsOf(existing).filter((url) => !kept.has(url)));
  const link = await getLinkBySlug(deps, user, newSlug);
  if (cardChanged) askFacebookToRescrape(deps, user, link.id, link.currentShortUrl);
  return link;
}

/**
 * After the save, in the background: asks Facebook to scrape the address again (when configured) and stores
 * its answer on the link for the platforms panel. A slower answer to an older request never overwrites a newer one.
 */
function askFacebookToRescrape(deps: LinkDeps, user: User, linkId: number, shortUrl: string): void {
  deps.facebook?.request(shortUrl, async (outcome) => {
    await deps.db
      .update(links)
      .set({ facebookScrapeAt: outcome.at, facebookScrapeOk: outcome.ok, facebookScrapeMessage: outcome.message })
      .where(and(eq(links.id, linkId), eq(links.userId, user.id), or(isNull(links.facebookScrapeAt), lte(links.facebookScrapeAt, outcome.at))));
  });
}

/**
 * POST /api/links/:id/versions: the next version of the short URL, `/go/{user}/{link}/{n}`. The same link under a
 * new address, for platforms with no refresh tool: they cache cards by URL (Facebook by og:url, which names it).
 */
export async function issueVersion(deps: LinkDeps, user: User, linkId: number): Promise<{ version: number; shortUrl: string }> {
  await requireActive(deps.db, deps, user);
  // One statement: concurrent calls each get their own number.
  const [row] = await deps.db
    .update(links)
    .set({ version: sql`${links.version} + 1`, updatedAt: new Date() })
    .where(and(eq(links.id, linkId), eq(links.userId, user.id), eq(links.deleted, false)))
    .returning({ version: links.version, linkSlug: links.linkSlug });
  if (!row) throw notFound(LINK_NOT_FOUND);
  // Every node's cached entry holds the newest version: /go/…/{n} is 404 beyond it.
  await deps.engine.announceLinkChange(shortAddress(user, row.linkSlug));
  const shortUrl = shortUrlOf(deps.publicUrl, user.userSlug, row.linkSlug, row.version);
  askFacebookToRescrape(deps, user, linkId, shortUrl);
  return { version: row.version, shortUrl };
}

export async function deleteLink(deps: LinkDeps, user: User, id: number): Promise<void> {
  const existing = await findLiveLink(deps.db, user.id, { id });
  if (!existing) throw notFound(LINK_NOT_FOUND);
  await deps.db
    .update(links)
    .set({ deleted: true, deletedAt: new Date() })
    .where(and(eq(links.id, id), eq(links.userId, user.id), eq(links.deleted, false)));
  await deps.engine.announceLinkChange(shortAddress(user, existing.linkSlug));
  await releaseImages(deps, uploadUrlsOf(existing));
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
    .select(dayCounts())
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
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
  const { series, platforms } = await dashboardViews(deps, user, [linkId], days, now);
  return { days: series.get(linkId) ?? zeroFilled(lastDays(days, now), new Map()), platforms: platforms.get(linkId) ?? [] };
}

/** For the dashboard: the given links' last `days` days and platforms, in two queries on the rollups. */
export async function dashboardViews(deps: LinkDeps, user: User, linkIds: number[], days: number, now = Date.now()) {
  const dates = lastDays(days, now);
  const owned = and(eq(links.userId, user.id), inArray(links.id, linkIds));
  const rows = await deps.db
    .select({ linkId: viewRollups.linkId, day: viewRollups.day, ...dayCounts() })
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
  const byLink = new Map<number, Map<string, DayCounts>>();
  for (const row of rows) byLink.set(row.linkId, (byLink.get(row.linkId) ?? new Map()).set(row.day, row));
  const series = new Map([...byLink].map(([linkId, byDay]) => [linkId, zeroFilled(dates, byDay)]));
  const platforms = new Map<number, Array<{ platform: string; count: number }>>();
  for (const row of platformRows) platforms.set(row.linkId, [...(platforms.get(row.linkId) ?? []), { platform: row.platform, count: row.count }]);
  return { series, platforms };
}

/** GET /api/links/:id/qr: the owner's live link's QR code, with the scan marker (src/links/qr.ts). */
export async function linkQrCode(deps: LinkDeps, user: User, linkId: number, format: "svg" | "png", size: number) {
  const link = await findLiveLink(deps.db, user.id, { id: linkId });
  if (!link) throw notFound(LINK_NOT_FOUND);
  const text = qrUrl(shortUrlOf(deps.publicUrl, user.userSlug, link.linkSlug));
  const body = format === "svg" ? qrSvg(text, size) : await qrPng(text, size);
  return { body, contentType: format === "svg" ? "image/svg+xml" : "image/png", filename: `${link.linkSlug}-qr.${format}` };
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
    .select({
      linkSlug: links.linkSlug,
      version: links.version,
      createdAt: links.createdAt,
      cardUpdatedAt: links.cardUpdatedAt,
      scrapeAt: links.facebookScrapeAt,
      scrapeOk: links.facebookScrapeOk,
      scrapeMessage: links.facebookScrapeMessage,
    })
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
  // Refresh tools are pointed at the address shared now.
  const shortUrl = shortUrlOf(deps.publicUrl, user.userSlug, link.linkSlug, link.version);
  // Null when never asked, or no longer configured (an old answer would describe settings that are gone).
  const scrape =
    deps.facebook && link.scrapeAt ? { at: link.scrapeAt, ok: link.scrapeOk === true, message: link.scrapeMessage ?? "" } : null;
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
      refresh: {
        kind: facts.refresh.kind as RefreshKind,
        url: refreshUrl(id, shortUrl),
        note: facts.refresh.note,
        // What issues a new version (`linkprev links new-version SLUG` calls it); null for the other kinds.
        endpoint: facts.refresh.kind === "new-version" ? { method: "POST" as const, path: `/api/links/${linkId}/versions` } : null,
      },
      // Facebook only: the last re-scrape LinkPrev asked for (FACEBOOK_APP_ID), or null.
      ...(id === "facebook" ? { scrape } : {}),
    };
  });
  return { cardUpdatedAt, platforms };
}

