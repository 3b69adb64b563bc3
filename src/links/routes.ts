// /api/links: the link API for the web app (cookie) and the CLI (bearer token).
import { Elysia } from "elysia";
import { z } from "zod";
import { routeGuards } from "../auth/guards.ts";
import type { Services } from "../services.ts";
import type { User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { RateLimiter } from "../http/rate-limit.ts";
import { parseInput } from "../http/validate.ts";
import { FETCHES_PER_MINUTE, MetadataRequest, pageMetadata } from "./metadata.ts";
import { LinkInput } from "./model.ts";
import { createLink } from "./create.ts";
import { deleteLink } from "./delete.ts";
import { lintLink } from "./lint.ts";
import { linkPlatforms } from "./platforms.ts";
import { linkQrCode } from "./qr-code.ts";
import { checkSlugAvailability, getLinkBySlug, listLinks } from "./queries.ts";
import { linkStats, linkViews } from "./stats.ts";
import { updateLink } from "./update.ts";
import { issueVersion } from "./versions.ts";
import { LinkPageQuery, listLinkPage } from "./list-page.ts";
import { present } from "./present.ts";
import { dropEarlierAddress } from "./old-addresses.ts";

/** Any of these asks GET /api/links for a page; without them it answers the whole list, as clients expect. */
const PAGE_PARAMS = Object.keys(LinkPageQuery.shape);

/** GET /api/links/:id/views?days= */
export const DaysQuery = z.object({
  days: z.coerce
    .number("days must be a number")
    .int("days must be a whole number")
    .min(1, "days must be at least 1")
    .max(365, "days must be 365 or less")
    .default(30),
});

export const QR_SIZE_MIN = 128;
export const QR_SIZE_MAX = 2048;
export const QrQuery = z.object({
  format: z.enum(["svg", "png"], "format must be svg or png").default("svg"),
  size: z.coerce
    .number("size must be a number")
    .int("size must be a whole number of pixels")
    .min(QR_SIZE_MIN, `size must be at least ${QR_SIZE_MIN}`)
    .max(QR_SIZE_MAX, `size must be ${QR_SIZE_MAX} or less`)
    .default(512),
});

/** The optional `image` part of a multipart body; an empty file input counts as none. */
function uploadedImage(body: unknown): File | null {
  const image = (body as { image?: unknown } | null)?.image;
  return image instanceof File && (image.size > 0 || image.name !== "") ? image : null;
}

function numericId(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound("Link not found");
  return id;
}

export function linkRoutes(services: Services) {
  const deps = services.links;
  const fetchLimiter = new RateLimiter(services.hits.countHit, FETCHES_PER_MINUTE, services.clock);
  /** Counts one outside fetch for the user; a 429 past the limit. */
  const countFetch = (user: User) => fetchLimiter.hit(`fetch:user:${user.id}`);
  /** Parses a create or update body; an image import or upload counts against the limit (either is decoded). */
  const linkInput = async (user: User, body: unknown) => {
    const input = parseInput(LinkInput, body);
    if (input.imageImportUrl || uploadedImage(body)) await countFetch(user);
    return input;
  };
  return (
    new Elysia({ prefix: "/api/links" })
      .use(routeGuards(services))
      .get(
        "/",
        async ({ user, query, set }) => {
          if (!PAGE_PARAMS.some((name) => name in query)) return listLinks(deps, user, "live");
          const input = parseInput(LinkPageQuery, query);
          const page = await listLinkPage(deps, user, input, present);
          // As GitHub's API pages: the next page's address in a Link header, the body the same bare array.
          if (page.next) {
            const next = new URLSearchParams({
              limit: String(input.limit),
              sort: input.sort,
              ...(input.q ? { q: input.q } : {}),
              cursor: page.next,
            });
            set.headers.link = `<${services.config.publicUrl}/api/links?${next}>; rel="next"`;
          }
          return page.links;
        },
        { user: true },
      )
      .get("/deleted", ({ user }) => listLinks(deps, user, "deleted"), { user: true })
      .get("/stats", ({ user }) => linkStats(deps, user), { user: true })
      .get(
        "/check-slug-availability",
        ({ user, query }) => checkSlugAvailability(deps, user, query.slug, query.linkId),
        { user: true },
      )
      .post(
        "/",
        async ({ user, body, set }) => {
          const link = await createLink(deps, user, await linkInput(user, body), uploadedImage(body));
          set.status = 201;
          return link;
        },
        { permission: "links.write" },
      )
      // The preview lint of a card not (yet) saved: same input as a create, nothing stored.
      // An uploaded image is decoded like a create's, so it counts against the same per-user limit.
      .post(
        "/lint",
        async ({ user, body }) => {
          const input = parseInput(LinkInput, body);
          const file = uploadedImage(body);
          if (file) await countFetch(user);
          return lintLink(deps, input, file);
        },
        { user: true },
      )
      // Auto-fill: the target page's card fields, fetched safely (refusals are 422s saying why); 404 when turned off.
      .post(
        "/metadata",
        async ({ user, body }) => {
          if (!deps.fetcher) throw notFound("Auto-fill is turned off on this server");
          const { url } = parseInput(MetadataRequest, body);
          await countFetch(user);
          return pageMetadata(deps.fetcher, url);
        },
        { user: true },
      )
      .get("/by-slug/:linkSlug", ({ user, params }) => getLinkBySlug(deps, user, params.linkSlug), { user: true })
      .put(
        "/by-slug/:linkSlug",
        async ({ user, params, body }) =>
          updateLink(deps, user, params.linkSlug, await linkInput(user, body), uploadedImage(body), () =>
            countFetch(user),
          ),
        { permission: "links.write" },
      )
      .get(
        "/:id/views",
        ({ user, params, query }) => linkViews(deps, user, numericId(params.id), parseInput(DaysQuery, query).days),
        { user: true },
      )
      .get("/:id/platforms", ({ user, params }) => linkPlatforms(deps, user, numericId(params.id)), { user: true })
      // A new version of the short URL, for platforms that keep an old card and offer no refresh tool.
      .post(
        "/:id/versions",
        async ({ user, params, set }) => {
          const version = await issueVersion(deps, user, numericId(params.id));
          set.status = 201;
          return version;
        },
        { permission: "links.write" },
      )
      .get(
        "/:id/qr",
        async ({ user, params, query }) => {
          const { format, size } = parseInput(QrQuery, query);
          const code = await linkQrCode(deps, user, numericId(params.id), format, size);
          return new Response(code.body, {
            headers: {
              "Content-Type": code.contentType,
              "Content-Disposition": `inline; filename="${code.filename}"`,
              "Cache-Control": "private, no-store",
            },
          });
        },
        { user: true },
      )
      .delete(
        "/:id/old-addresses/:addressId",
        async ({ user, params, set }) => {
          await dropEarlierAddress(deps, user, numericId(params.id), numericId(params.addressId));
          set.status = 204;
          return null;
        },
        { permission: "links.write" },
      )
      .delete(
        "/:id",
        async ({ user, params, set }) => {
          await deleteLink(deps, user, numericId(params.id));
          set.status = 204;
          return null;
        },
        { permission: "links.write" },
      )
  );
}
