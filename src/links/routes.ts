// /api/links: the link API for the web app (cookie) and the CLI (bearer token).
import { Elysia } from "elysia";
import { z } from "zod";
import { requireUser, authPlugin } from "../auth/plugin.ts";
import type { Services } from "../services.ts";
import type { User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import { MetadataRequest, pageMetadata } from "./metadata.ts";
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
  const { fetchLimiter } = services;
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
      .use(authPlugin(services))
      .get("/", async ({ viewer, query, set }) => {
        const user = requireUser(viewer);
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
      })
      .get("/deleted", ({ viewer }) => listLinks(deps, requireUser(viewer), "deleted"))
      .get("/stats", ({ viewer }) => linkStats(deps, requireUser(viewer)))
      .get("/check-slug-availability", ({ viewer, query }) =>
        checkSlugAvailability(deps, requireUser(viewer), query.slug, query.linkId),
      )
      .post("/", async ({ viewer, body, set }) => {
        const user = requireUser(viewer);
        const link = await createLink(deps, user, await linkInput(user, body), uploadedImage(body));
        set.status = 201;
        return link;
      })
      // The preview lint of a card not (yet) saved: same input as a create, nothing stored.
      // An uploaded image is decoded like a create's, so it counts against the same per-user limit.
      .post("/lint", async ({ viewer, body }) => {
        const user = requireUser(viewer);
        const input = parseInput(LinkInput, body);
        const file = uploadedImage(body);
        if (file) await countFetch(user);
        return lintLink(deps, input, file);
      })
      // Auto-fill: the target page's card fields, fetched safely (refusals are 422s saying why); 404 when turned off.
      .post("/metadata", async ({ viewer, body }) => {
        const user = requireUser(viewer);
        if (!deps.fetcher) throw notFound("Auto-fill is turned off on this server");
        const { url } = parseInput(MetadataRequest, body);
        await countFetch(user);
        return pageMetadata(deps.fetcher, url);
      })
      .get("/by-slug/:linkSlug", ({ viewer, params }) => getLinkBySlug(deps, requireUser(viewer), params.linkSlug))
      .put("/by-slug/:linkSlug", async ({ viewer, params, body }) => {
        const user = requireUser(viewer);
        return updateLink(deps, user, params.linkSlug, await linkInput(user, body), uploadedImage(body), () =>
          countFetch(user),
        );
      })
      .get("/:id/views", ({ viewer, params, query }) =>
        linkViews(deps, requireUser(viewer), numericId(params.id), parseInput(DaysQuery, query).days, deps.clock.now()),
      )
      .get("/:id/platforms", ({ viewer, params }) => linkPlatforms(deps, requireUser(viewer), numericId(params.id)))
      // A new version of the short URL, for platforms that keep an old card and offer no refresh tool.
      .post("/:id/versions", async ({ viewer, params, set }) => {
        const version = await issueVersion(deps, requireUser(viewer), numericId(params.id));
        set.status = 201;
        return version;
      })
      .get("/:id/qr", async ({ viewer, params, query }) => {
        const user = requireUser(viewer);
        const { format, size } = parseInput(QrQuery, query);
        const code = await linkQrCode(deps, user, numericId(params.id), format, size);
        return new Response(code.body, {
          headers: {
            "Content-Type": code.contentType,
            "Content-Disposition": `inline; filename="${code.filename}"`,
            "Cache-Control": "private, no-store",
          },
        });
      })
      .delete("/:id/old-addresses/:addressId", async ({ viewer, params, set }) => {
        await dropEarlierAddress(deps, requireUser(viewer), numericId(params.id), numericId(params.addressId));
        set.status = 204;
        return null;
      })
      .delete("/:id", async ({ viewer, params, set }) => {
        await deleteLink(deps, requireUser(viewer), numericId(params.id));
        set.status = 204;
        return null;
      })
  );
}
