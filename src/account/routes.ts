// /api/account (the user's data: export, deletion) and /api/links/export.csv.
import { Elysia } from "elysia";
import { z } from "zod";
import { routeGuards, signedInUser } from "../auth/guards.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { mappingStripeErrors } from "../billing/stripe.ts";
import type { Services } from "../services.ts";
import { parseInput } from "../http/validate.ts";
import { deleteAccount, finishDeletion } from "./deletion.ts";
import { exportAccount, exportFileName, linksCsv } from "./export.ts";

const CONFIRM_MESSAGE = "Type the e-mail address of this account to confirm the deletion";
export const DeleteInput = z.object(
  { confirmEmail: z.string(CONFIRM_MESSAGE).max(320, CONFIRM_MESSAGE) },
  CONFIRM_MESSAGE,
);

const attachment = (body: string, contentType: string, fileName: string) =>
  new Response(body, {
    headers: {
      "Content-Type": contentType,
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "no-store",
    },
  });

export function accountRoutes(services: Services) {
  const { links, deletion } = services;
  return new Elysia()
    .use(routeGuards(services))
    .get(
      "/api/account/export",
      async ({ user }) => {
        const document = await exportAccount(services.db, services.config.publicUrl, user);
        return attachment(JSON.stringify(document, null, 2), "application/json; charset=utf-8", exportFileName("json"));
      },
      { user: true },
    )
    .get(
      "/api/links/export.csv",
      async ({ user }) => attachment(await linksCsv(links, user), "text/csv; charset=utf-8", exportFileName("csv")),
      { user: true },
    )
    .delete("/api/account", async ({ viewer, deletingUserId, body, cookie, set }) => {
      // A retry after a deletion stopped part-way (the account is marked, so no longer signed in): finish it.
      if (deletingUserId !== null) await mappingStripeErrors(() => finishDeletion(deletion, deletingUserId));
      else {
        const { confirmEmail } = parseInput(DeleteInput, body);
        await mappingStripeErrors(() => deleteAccount(deletion, signedInUser(viewer), confirmEmail));
      }
      cookie[SESSION_COOKIE]!.remove();
      set.status = 204;
      return null;
    });
}
