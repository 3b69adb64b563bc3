// /api/links: the link API for the web app (cookie) and the CLI (bearer token).
import { Elysia } from "elysia";
import { z } from "zod";
import { routeGuards } from "../auth/guards.ts";
import type { Services } from "../services.ts";
import type { User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { pathId } from "../http/validate.ts";
import { RateLimiter } from "../http/rate-limit.ts";
import { FETCHES_PER_MINUTE, MetadataRequest, pageMetadata } from "./metadata.ts";
import { LINK_NOT_FOUND } from "./deps.ts";
import { LinkInput, RequestedSlug, SLUG_MAX, SlugCheckLinkId } from "./model.ts";
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

/** A create's or update's body: JSON, or multipart/form-data with the same fields and an optional `image` file. */
const LinkForm = LinkInput.extend({ image: z.unknown().optional() });

/** The optional `image` part of a multipart body; an empty file input counts as none. */
function uploadedImage(body: { image?: unknown }): File | null {
  const { image } = body;
  return image instanceof File && (image.size > 0 || image.name !== "") ? image : null;
}

const LinkIdParams = z.object({ id: pathId(LINK_NOT_FOUND).describe("The link's id") });
const LinkSlugParams = z.object({
  linkSlug: z.string().max(SLUG_MAX, LINK_NOT_FOUND).describe("The link's slug (the last part of its short URL)"),
});
const SlugQuery = z.object({ slug: RequestedSlug, linkId: SlugCheckLinkId });

export function linkRoutes(services: Services) {
  const deps = services.links;
  const fetchLimiter = new RateLimiter(services.hits.countHit, FETCHES_PER_MINUTE, services.clock);
  /** Counts one outside fetch for the user; a 429 past the limit. */
  const countFetch = (user: User) => fetchLimiter.hit(`fetch:user:${user.id}`);
  /** A create or update: an image import or upload counts against the limit (either is decoded). */
  const countImage = async (user: User, body: z.output<typeof LinkForm>) => {
    if (body.imageImportUrl || uploadedImage(body)) await countFetch(user);
  };
  return (
    new Elysia({ prefix: "/api/links" })
      .use(routeGuards(services))
      .get(
        "/",
        async ({ user, query: input, request, set }) => {
          const asked = new URL(request.url).searchParams;
          if (!PAGE_PARAMS.some((name) => asked.has(name))) return listLinks(deps, user, "live");
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
        { user: true, query: LinkPageQuery },
      )
      .get("/deleted", ({ user }) => listLinks(deps, user, "deleted"), { user: true })
      .get("/stats", ({ user }) => linkStats(deps, user), { user: true })
      .get(
        "/check-slug-availability",
        ({ user, query }) => checkSlugAvailability(deps, user, query.slug, query.linkId),
        { user: true, query: SlugQuery },
      )
      .post(
        "/",
        async ({ user, body, set }) => {
          await countImage(user, body);
          const link = await createLink(deps, user, body, uploadedImage(body));
          set.status = 201;
          return link;
        },
        { permission: "links.write", body: LinkForm },
      )
      // The preview lint of a card not (yet) saved: same input as a create, nothing stored.
      // An uploaded image is decoded like a create's, so it counts against the same per-user limit.
      .post(
        "/lint",
        async ({ user, body }) => {
          const file = uploadedImage(body);
          if (file) await countFetch(user);
          return lintLink(deps, body, file);
        },
        { user: true, body: LinkForm },
      )
      // Auto-fill: the target page's card fields, fetched safely (refusals are 422s saying why); 404 when turned off.
      .post(
        "/metadata",
        async ({ user, body }) => {
          if (!deps.fetcher) throw notFound("Auto-fill is turned off on this server");
          await countFetch(user);
          return pageMetadata(deps.fetcher, body.url);
        },
        { user: true, body: MetadataRequest },
      )
      .get("/by-slug/:linkSlug", ({ user, params }) => getLinkBySlug(deps, user, params.linkSlug), {
        user: true,
        params: LinkSlugParams,
      })
      .put(
        "/by-slug/:linkSlug",
        async ({ user, params, body }) => {
          await countImage(user, body);
          return updateLink(deps, user, params.linkSlug, body, uploadedImage(body), () => countFetch(user));
        },
        { permission: "links.write", params: LinkSlugParams, body: LinkForm },
      )
      .get("/:id/views", ({ user, params, query }) => linkViews(deps, user, params.id, query.days), {
        user: true,
        params: LinkIdParams,
        query: DaysQuery,
      })
      .get("/:id/platforms", ({ user, params }) => linkPlatforms(deps, user, params.id), {
        user: true,
        params: LinkIdParams,
      })
      // A new version of the short URL, for platforms that keep an old card and offer no refresh tool.
      .post(
        "/:id/versions",
        async ({ user, params, set }) => {
          const version = await issueVersion(deps, user, params.id);
          set.status = 201;
          return version;
        },
        { permission: "links.write", params: LinkIdParams },
      )
      .get(
        "/:id/qr",
        async ({ user, params, query }) => {
          const code = await linkQrCode(deps, user, params.id, query.format, query.size);
          return new Response(code.body, {
            headers: {
              "Content-Type": code.contentType,
              "Content-Disposition": `inline; filename="${code.filename}"`,
              "Cache-Control": "private, no-store",
            },
          });
        },
        { user: true, params: LinkIdParams, query: QrQuery },
      )
      .delete(
        "/:id/old-addresses/:addressId",
        async ({ user, params, set }) => {
          await dropEarlierAddress(deps, user, params.id, params.addressId);
          set.status = 204;
          return null;
        },
        {
          permission: "links.write",
          params: LinkIdParams.extend({
            addressId: pathId(LINK_NOT_FOUND).describe("The earlier address's id (oldAddresses[].id)"),
          }),
        },
      )
      .delete(
        "/:id",
        async ({ user, params, set }) => {
          await deleteLink(deps, user, params.id);
          set.status = 204;
          return null;
        },
        { permission: "links.write", params: LinkIdParams },
      )
  );
}
