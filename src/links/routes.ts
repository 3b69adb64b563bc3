// /api/links: the link API for the web app (cookie) and the CLI (bearer token).
import { Elysia } from "elysia";
import { z } from "zod";
import { requireUser, authPlugin } from "../auth/plugin.ts";
import type { AppContext } from "../context.ts";
import { notFound } from "../http/errors.ts";
import { parseInput } from "../http/validate.ts";
import { LinkInput, SLUG_MAX, SLUG_PATTERN } from "./model.ts";
import { checkSlugAvailability, createLink, deleteLink, getLinkBySlug, linkPlatforms, linkStats, linkViews, lintLink, listLinks, updateLink, type LinkDeps } from "./service.ts";

/** GET /api/links/:id/views?days= */
export const DaysQuery = z.object({ days: z.coerce.number("days must be a number").int("days must be a whole number").min(1, "days must be at least 1").max(365, "days must be 365 or less").default(30) });

/** The optional `image` part of a multipart body; an empty file input counts as none. */
function uploadedImage(body: unknown): File | null {
  const image = (body as { image?: unknown } | null)?.image;
  return image instanceof File && (image.size > 0 || image.name !== "") ? image : null;
}

/** A link slug from the path: one that no link can have (NUL and the like) is a 404 without a query. */
function linkSlugParam(value: string): string {
  if (value.length > SLUG_MAX || !SLUG_PATTERN.test(value)) throw notFound("Link not found");
  return value;
}

function numericId(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound("Link not found");
  return id;
}

export const linkDeps = (ctx: AppContext): LinkDeps => ({
  db: ctx.db,
  engine: ctx.engine,
  images: ctx.images,
  publicUrl: ctx.config.publicUrl,
  billingEnabled: ctx.config.stripe !== null,
});

export function linkRoutes(ctx: AppContext) {
  const deps = linkDeps(ctx);
  return new Elysia({ prefix: "/api/links" })
    .use(authPlugin(ctx))
    .get("/", ({ viewer }) => listLinks(deps, requireUser(viewer), "live"))
    .get("/deleted", ({ viewer }) => listLinks(deps, requireUser(viewer), "deleted"))
    .get("/stats", ({ viewer }) => linkStats(deps, requireUser(viewer)))
    .get("/check-slug-availability", ({ viewer, query }) => checkSlugAvailability(deps, requireUser(viewer), query.slug))
    .post("/", async ({ viewer, body, set }) => {
      const user = requireUser(viewer);
      const link = await createLink(deps, user, parseInput(LinkInput, body), uploadedImage(body));
      set.status = 201;
      return link;
    })
    // The preview lint of a card not (yet) saved: same input as a create, nothing stored.
    .post("/lint", ({ viewer, body }) => {
      requireUser(viewer);
      return lintLink(deps, parseInput(LinkInput, body), uploadedImage(body));
    })
    .get("/by-slug/:linkSlug", ({ viewer, params }) => getLinkBySlug(deps, requireUser(viewer), linkSlugParam(params.linkSlug)))
    .put("/by-slug/:linkSlug", async ({ viewer, params, body }) =>
      updateLink(deps, requireUser(viewer), linkSlugParam(params.linkSlug), parseInput(LinkInput, body), uploadedImage(body)),
    )
    .get("/:id/views", ({ viewer, params, query }) => linkViews(deps, requireUser(viewer), numericId(params.id), parseInput(DaysQuery, query).days))
    .get("/:id/platforms", ({ viewer, params }) => linkPlatforms(deps, requireUser(viewer), numericId(params.id)))
    .delete("/:id", async ({ viewer, params, set }) => {
      await deleteLink(deps, requireUser(viewer), numericId(params.id));
      set.status = 204;
      return null;
    });
}
