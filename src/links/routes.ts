// /api/links: the link API for the web app (cookie) and the CLI (bearer token). (One link's views, versions, QR code
// and deletion: per-link-routes.ts.)
import { Elysia } from "elysia";
import { z } from "zod";
import { asJson } from "../api-docs/json.ts";
import { routeGuards } from "../auth/guards.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import type { LinkDeps } from "./deps.ts";
import { MetadataRequest, pageMetadata } from "./metadata.ts";
import { LinkInput, RequestedSlug, SLUG_MAX, SlugCheckLinkId } from "./model.ts";
import { createLink } from "./create.ts";
import { lintLink } from "./lint.ts";
import { checkSlugAvailability, getLinkBySlug, listLinks } from "./queries.ts";
import { linkStats } from "./stats.ts";
import { updateLink } from "./update.ts";
import { LinkPageQuery, listLinkPage } from "./list-page.ts";
import { present } from "./present.ts";
import { LinkQrStyleField } from "./qr-style-model.ts";
import { LinkSchema, LinkStatsSchema, LintResultSchema, PageMetadataSchema, SlugAvailabilitySchema } from "./wire.ts";

/** Any of these asks GET /api/links for a page; without them it answers the whole list, as clients expect. */
const PAGE_PARAMS = Object.keys(LinkPageQuery.shape);

/** A create's or update's body: JSON, or multipart/form-data with the same fields and an optional `image` file. */
const LinkForm = LinkInput.extend({
  image: z.unknown().optional().describe("multipart/form-data only: an image for the card (JPEG, PNG, WebP or GIF)"),
  qrStyle: LinkQrStyleField.describe("The link's own QR style (null: the workspace's default; left out: unchanged)"),
});

/** The optional `image` part of a multipart body; an empty file input counts as none. */
function uploadedImage(body: { image?: unknown }): File | null {
  const { image } = body;
  return image instanceof File && (image.size > 0 || image.name !== "") ? image : null;
}

const LinkSlugParams = z.object({
  // No length rule here: a slug no link could have is the lookup's 404, after the body is judged, as before.
  linkSlug: z.string().describe(`The link's slug (the last part of its short URL, at most ${SLUG_MAX} characters)`),
});
const SlugQuery = z.object({ slug: RequestedSlug, linkId: SlugCheckLinkId });
const LinkList = z.array(LinkSchema);

const linkExample = {
  title: "We launched",
  description: "Everything new in version 2",
  targetUrl: "https://example.com/blog/launch",
  customLinkSlug: "launch",
};

/** What /api/links needs. */
export type LinkRouteDeps = {
  links: LinkDeps;
  /** Outside fetches (auto-fill) per user: FETCHES_PER_MINUTE. */
  fetchLimiter: RateLimiter;
  /** Where the next page's address (the Link header) points. */
  publicUrl: string;
  session: SessionDeps;
};

export function linkRoutes({ links: deps, fetchLimiter, publicUrl, session }: LinkRouteDeps) {
  /** Counts one outside fetch for the user; a 429 past the limit. */
  const countFetch = (user: User) => fetchLimiter.hit(`fetch:user:${user.id}`);
  /** A create or update: an image import or upload counts against the limit (either is decoded). */
  const countImage = async (user: User, body: z.output<typeof LinkForm>) => {
    if (body.imageImportUrl || uploadedImage(body)) await countFetch(user);
  };
  return (
    new Elysia({ prefix: "/api/links" })
      .use(routeGuards(session))
      .get(
        "/",
        async ({ workspace, query: input, request, set }) => {
          const asked = new URL(request.url).searchParams;
          if (!PAGE_PARAMS.some((name) => asked.has(name))) return asJson(await listLinks(deps, workspace, "live"));
          const page = await listLinkPage(deps, workspace, input, present);
          // As GitHub's API pages: the next page's address in a Link header, the body the same bare array.
          if (page.next) {
            const next = new URLSearchParams({
              limit: String(input.limit),
              sort: input.sort,
              ...(input.q ? { q: input.q } : {}),
              cursor: page.next,
            });
            set.headers.link = `<${publicUrl}/api/links?${next}>; rel="next"`;
          }
          return asJson(page.links);
        },
        {
          permission: "links.read",
          query: LinkPageQuery,
          response: { 200: LinkList },
          doc: {
            id: "listLinks",
            tag: "Links",
            summary: "List your live links, newest first; or one page of them, searched and sorted",
            description:
              "Without parameters: every live link, newest first. With any of limit, cursor, q or sort: one page (the same bare array) and, when there is more, a `Link: <…>; rel=\"next\"` header with the next page's address, as GitHub's API pages.",
            errors: [400],
            answers: {
              200: {
                description: "The links",
                headers: {
                  Link: 'The next page, `<URL>; rel="next"`; absent on the last page and without paging parameters',
                },
              },
            },
          },
        },
      )
      .get("/deleted", async ({ workspace }) => asJson(await listLinks(deps, workspace, "deleted")), {
        permission: "links.read",
        response: { 200: LinkList },
        doc: {
          id: "listDeletedLinks",
          tag: "Links",
          summary: "List your deleted links",
          answers: { 200: "The deleted links" },
        },
      })
      .get("/stats", ({ workspace }) => linkStats(deps, workspace), {
        permission: "analytics.read",
        response: { 200: LinkStatsSchema },
        doc: {
          id: "linkStats",
          tag: "Links",
          summary: "Totals over your live links",
          answers: {
            200: {
              description: "Counts",
              example: { totalLinks: 3, totalViews: 352, humanViews: 340, botViews: 12, uniqueHumans: 290, scans: 17 },
            },
          },
        },
      })
      .get(
        "/check-slug-availability",
        ({ workspace, query }) => checkSlugAvailability(deps, workspace, query.slug, query.linkId),
        {
          permission: "links.read",
          query: SlugQuery,
          response: { 200: SlugAvailabilitySchema },
          doc: {
            id: "checkSlugAvailability",
            tag: "Links",
            summary: "Whether a custom slug is free for you",
            errors: [400],
            answers: {
              200: {
                description: "The answer",
                example: { available: false, message: "This custom URL is already taken" },
              },
            },
          },
        },
      )
      .post(
        "/",
        async ({ user, acting, body, set }) => {
          await countImage(user, body);
          const link = await createLink(deps, acting, body, uploadedImage(body));
          set.status = 201;
          return asJson(link);
        },
        {
          permission: "links.write",
          body: LinkForm,
          response: { 201: LinkSchema },
          doc: {
            id: "createLink",
            tag: "Links",
            summary: "Create a link",
            description:
              "JSON, or multipart/form-data with the same fields and an optional `image` file (JPEG, PNG, WebP or GIF), which LinkPrev resizes for the card.",
            body: { multipart: true, example: linkExample },
            errors: [400, 402, 403, 409, 413, 422, 429, 503],
            answers: { 201: "The new link" },
          },
        },
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
        {
          user: true,
          body: LinkForm,
          response: { 200: LintResultSchema },
          doc: {
            id: "lintLink",
            tag: "Links",
            summary: "Check a card before saving it",
            description: "What each platform will cut or refuse; nothing is stored.",
            body: { multipart: true, example: linkExample },
            errors: [400, 413, 422, 429, 503],
            answers: { 200: "The warnings" },
          },
        },
      )
      // Auto-fill: the target page's card fields, fetched safely (refusals are 422s saying why); 404 when turned off.
      .post(
        "/metadata",
        async ({ user, body }) => {
          if (!deps.fetcher) throw notFound("Auto-fill is turned off on this server");
          await countFetch(user);
          return pageMetadata(deps.fetcher, body.url);
        },
        {
          user: true,
          body: MetadataRequest,
          response: { 200: PageMetadataSchema },
          doc: {
            id: "pageMetadata",
            tag: "Links",
            summary: "Title, description and image of a web page (auto-fill)",
            description:
              "Fetched by the safe fetcher: public addresses on ports 80/443 only, at most 3 redirects, 8 s, HTML only, the head read up to 512 KB. 404 when the server has FETCH_DISABLED=true.",
            body: { example: { url: "https://example.com/blog/launch" } },
            errors: [400, 404, 422, 429],
            answers: { 200: "What the page says of itself (each may be null)" },
          },
        },
      )
      .get(
        "/by-slug/:linkSlug",
        async ({ workspace, params }) => asJson(await getLinkBySlug(deps, workspace, params.linkSlug)),
        {
          permission: "links.read",
          params: LinkSlugParams,
          response: { 200: LinkSchema },
          doc: {
            id: "getLink",
            tag: "Links",
            summary: "One of your links by its slug",
            errors: [404],
            answers: { 200: "The link" },
          },
        },
      )
      .put(
        "/by-slug/:linkSlug",
        async ({ user, acting, params, body }) => {
          await countImage(user, body);
          return asJson(
            await updateLink(deps, acting, params.linkSlug, body, uploadedImage(body), () => countFetch(user)),
          );
        },
        {
          permission: "links.write",
          params: LinkSlugParams,
          body: LinkForm,
          response: { 200: LinkSchema },
          doc: {
            id: "updateLink",
            tag: "Links",
            summary: "Replace a link's card and target",
            body: { multipart: true, example: linkExample },
            errors: [400, 403, 404, 409, 413, 422, 429, 503],
            answers: { 200: "The updated link" },
          },
        },
      )
  );
}
