// /api/account (the user's data: export, deletion) and /api/links/export.csv.
import { Elysia } from "elysia";
import { z } from "zod";
import { authPlugin, requireUser } from "../auth/plugin.ts";
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
    .use(authPlugin(services))
    .get("/api/account/export", async ({ viewer }) => {
      const document = await exportAccount(
        services.db,
        services.config.publicUrl,
        requireUser(viewer),
        services.clock.now(),
      );
      return attachment(
        JSON.stringify(document, null, 2),
        "application/json; charset=utf-8",
        exportFileName("json", new Date(services.clock.now())),
      );
    })
    .get("/api/links/export.csv", async ({ viewer }) =>
      attachment(
        await linksCsv(links, requireUser(viewer)),
        "text/csv; charset=utf-8",
        exportFileName("csv", new Date(services.clock.now())),
      ),
    )
    .delete("/api/account", async ({ viewer, deletingUserId, body, cookie, set }) => {
      // A retry after a deletion stopped part-way (the account is marked, so no longer signed in): finish it.
      if (deletingUserId !== null)
        await mappingStripeErrors(services.log, () => finishDeletion(deletion, deletingUserId));
      else {
        const { confirmEmail } = parseInput(DeleteInput, body);
        await mappingStripeErrors(services.log, () => deleteAccount(deletion, requireUser(viewer), confirmEmail));
      }
      cookie[SESSION_COOKIE]!.remove();
      set.status = 204;
      return null;
    });
}
