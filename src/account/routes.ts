// /api/account (the user's data: export, deletion) and /api/links/export.csv.
import { Elysia } from "elysia";
import { z } from "zod";
import { authPlugin, requireUser } from "../auth/plugin.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { createStripe } from "../billing/stripe.ts";
import type { AppContext } from "../context.ts";
import { parseInput } from "../http/validate.ts";
import { linkDeps } from "../links/routes.ts";
import { deleteAccount, finishDeletion, type DeletionDeps } from "./deletion.ts";
import { exportAccount, exportFileName, linksCsv } from "./export.ts";

const CONFIRM_MESSAGE = "Type the e-mail address of this account to confirm the deletion";
export const DeleteInput = z.object({ confirmEmail: z.string(CONFIRM_MESSAGE).max(320, CONFIRM_MESSAGE) }, CONFIRM_MESSAGE);

export const deletionDeps = (ctx: AppContext): DeletionDeps => ({
  db: ctx.db,
  database: ctx.database,
  changes: ctx.changes,
  images: ctx.images,
  stripe: ctx.config.stripe ? createStripe(ctx.config.stripe) : null,
  crashAfter: ctx.config.testCrashDuringDeleteAfter,
});

const attachment = (body: string, contentType: string, fileName: string) =>
  new Response(body, { headers: { "Content-Type": contentType, "Content-Disposition": `attachment; filename="${fileName}"`, "Cache-Control": "no-store" } });

export function accountRoutes(ctx: AppContext) {
  const links = linkDeps(ctx);
  const deletion = deletionDeps(ctx);
  return new Elysia()
    .use(authPlugin(ctx))
    .get("/api/account/export", async ({ viewer }) => {
      const document = await exportAccount(ctx.db, ctx.config.publicUrl, requireUser(viewer));
      return attachment(JSON.stringify(document, null, 2), "application/json; charset=utf-8", exportFileName("json"));
    })
    .get("/api/links/export.csv", async ({ viewer }) => attachment(await linksCsv(links, requireUser(viewer)), "text/csv; charset=utf-8", exportFileName("csv")))
    .delete("/api/account", async ({ viewer, deletingUserId, body, cookie, set }) => {
      // A retry after a deletion stopped part-way (the account is marked, so no longer signed in): finish it.
      if (deletingUserId !== null) await finishDeletion(deletion, deletingUserId);
      else await deleteAccount(deletion, requireUser(viewer), parseInput(DeleteInput, body).confirmEmail);
      cookie[SESSION_COOKIE]!.remove();
      set.status = 204;
      return null;
    });
}
