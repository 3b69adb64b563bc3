// /api/links/:id/…: one link's views, platforms, versions, QR code and earlier addresses; and its deletion.
import { Elysia } from "elysia";
import { z } from "zod";
import { routeGuards } from "../auth/guards.ts";
import { asJson } from "../api-docs/json.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import { pathId } from "../http/validate.ts";
import { LINK_NOT_FOUND, type LinkDeps } from "./deps.ts";
import { deleteLink } from "./delete.ts";
import { dropEarlierAddress } from "./old-addresses.ts";
import { linkFetches } from "./fetches.ts";
import { CrawlerFetchesSchema, FetchesQuery } from "./fetches-wire.ts";
import { linkPlatforms } from "./platforms.ts";
import { linkQrCode } from "./qr-code.ts";
import { QrStyleQuery } from "./qr-style-model.ts";
import { linkViews } from "./stats.ts";
import { issueVersion } from "./versions.ts";
import { LinkPlatformsSchema, LinkVersionSchema, LinkViewsSchema } from "./wire.ts";

export const LinkIdParams = z.object({ id: pathId(LINK_NOT_FOUND).describe("The link's id") });

/** GET /api/links/:id/views?days= */
const DaysQuery = z.object({
  days: z.coerce
    .number("days must be a number")
    .int("days must be a whole number")
    .min(1, "days must be at least 1")
    .max(365, "days must be 365 or less")
    .default(30),
});

const QR_SIZE_MIN = 128;
const QR_SIZE_MAX = 2048;
const QrQuery = QrStyleQuery.extend({
  format: z.enum(["svg", "png"], "format must be svg or png").default("svg"),
  size: z.coerce
    .number("size must be a number")
    .int("size must be a whole number of pixels")
    .min(QR_SIZE_MIN, `size must be at least ${QR_SIZE_MIN}`)
    .max(QR_SIZE_MAX, `size must be ${QR_SIZE_MAX} or less`)
    .default(512),
});

/** What /api/links/:id/* needs. */
export type PerLinkRouteDeps = { links: LinkDeps; session: SessionDeps };

export function perLinkRoutes({ links: deps, session }: PerLinkRouteDeps) {
  return (
    new Elysia({ prefix: "/api/links" })
      .use(routeGuards(session))
      .get(
        "/:id/views",
        async ({ workspace, params, query }) =>
          asJson(await linkViews(deps, workspace, params.id, query.days, deps.clock.now())),
        {
          permission: "analytics.read",
          params: LinkIdParams,
          query: DaysQuery,
          response: { 200: LinkViewsSchema },
          doc: {
            id: "linkViews",
            tag: "Links",
            summary: "A link's views per day, people and crawlers apart",
            errors: [400, 404],
            answers: {
              200: {
                description: "Per-day series and crawler platforms",
                example: {
                  days: [{ date: "2026-11-22", human: 14, bot: 2, uniqueHumans: 11, scans: 3 }],
                  platforms: [{ platform: "slack", count: 2 }],
                },
              },
            },
          },
        },
      )
      .get("/:id/platforms", async ({ workspace, params }) => asJson(await linkPlatforms(deps, workspace, params.id)), {
        permission: "analytics.read",
        params: LinkIdParams,
        response: { 200: LinkPlatformsSchema },
        doc: {
          id: "linkPlatforms",
          tag: "Links",
          summary: "When each platform last fetched the card, and how to refresh it",
          description:
            "Each platform's fetches by verification (docs/verification.md), and every other bot that fetched the link by its kind.",
          errors: [404],
          answers: { 200: "Per platform" },
        },
      })
      .get(
        "/:id/fetches",
        async ({ workspace, params, query }) =>
          asJson(await linkFetches(deps, workspace, params.id, query.limit, query.cursor)),
        {
          permission: "analytics.read",
          params: LinkIdParams,
          query: FetchesQuery,
          response: { 200: CrawlerFetchesSchema },
          doc: {
            id: "linkFetches",
            tag: "Links",
            summary: "Every crawler fetch of the link on record, newest first",
            description:
              "The last 1,000 fetches of the card (and platforms' checks of the link from their networks) within 90 days: who, verified or not, which version and card variant, the answer's status, size and time.",
            errors: [400, 404],
            answers: { 200: "A page of fetches and the cursor of the next" },
          },
        },
      )
      // A new version of the short URL, for platforms that keep an old card and offer no refresh tool.
      .post(
        "/:id/versions",
        async ({ workspace, params, set }) => {
          const version = await issueVersion(deps, workspace, params.id);
          set.status = 201;
          return asJson(version);
        },
        {
          permission: "links.write",
          params: LinkIdParams,
          response: { 201: LinkVersionSchema },
          doc: {
            id: "createLinkVersion",
            tag: "Links",
            summary: "Issue a new version of the short URL",
            description:
              "The same link at /go/{user}/{link}/{n}, counted into it, its card's og:url naming that address: for platforms that keep an old card and offer no refresh tool.",
            errors: [402, 404],
            answers: { 201: "The new version and its address" },
          },
        },
      )
      .get(
        "/:id/qr",
        async ({ workspace, params, query }) => {
          const { format, size, ...style } = query;
          const code = await linkQrCode(deps, workspace, params.id, format, size, style);
          return new Response(code.body, {
            headers: {
              "Content-Type": code.contentType,
              "Content-Disposition": `inline; filename="${code.filename}"`,
              "Cache-Control": "private, no-store",
            },
          });
        },
        {
          permission: "links.read",
          params: LinkIdParams,
          query: QrQuery,
          doc: {
            id: "linkQrCode",
            tag: "Links",
            summary: "A QR code for the short URL",
            description:
              "Encodes the short URL with the scan marker ?qr=1: a visit through it counts as a scan too; the marker never reaches the target. Drawn in the link's qrStyle, else the workspace's default (GET /api/qr-style); each of fg/bg (#rrggbb), shape, finder, margin (modules), ecc, inverted, logo and logoSize given replaces that field. A logo raises error correction to H and clears the modules under it. A style that would not scan (fg lighter than bg unless inverted=1, contrast below 3:1, a logo too large for level H) is refused with 400 naming why.",
            errors: [400, 404],
            answers: {
              200: {
                description: "The code as SVG (format=svg) or PNG (format=png)",
                contentType: "image/svg+xml",
              },
            },
          },
        },
      )
      .delete(
        "/:id/old-addresses/:addressId",
        async ({ workspace, params, set }) => {
          await dropEarlierAddress(deps, workspace, params.id, params.addressId);
          set.status = 204;
          return null;
        },
        {
          permission: "links.write",
          params: LinkIdParams.extend({
            addressId: pathId(LINK_NOT_FOUND).describe("The earlier address's id (oldAddresses[].id)"),
          }),
          doc: {
            id: "dropOldAddress",
            tag: "Links",
            summary: "Drop one of a link's earlier addresses",
            description:
              "The address (one of the link's oldAddresses) answers 410 Gone from now on, to people and crawlers alike, and none of your links can take its slug again.",
            errors: [404],
            answers: { 204: "Done; no body" },
          },
        },
      )
      .delete(
        "/:id",
        async ({ workspace, params, set }) => {
          await deleteLink(deps, workspace, params.id);
          set.status = 204;
          return null;
        },
        {
          permission: "links.write",
          params: LinkIdParams,
          doc: {
            id: "deleteLink",
            tag: "Links",
            summary: "Delete a link",
            description: "Its short URL stops answering at once; the link is listed under deleted links.",
            errors: [403, 404],
            answers: { 204: "Done; no body" },
          },
        },
      )
  );
}
