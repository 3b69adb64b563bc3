// /api/account (the user's data: export, deletion) and /api/links/export.csv.
import { Elysia } from "elysia";
import { z } from "zod";
import { routeGuards, signedInUser, requireScope } from "../auth/guards.ts";
import { SESSION_COOKIE } from "../auth/sessions.ts";
import { attachment } from "../http/attachment.ts";
import { mappingStripeErrors } from "../billing/stripe.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import type { LinkDeps } from "../links/deps.ts";
import type { Logger } from "../observability/log.ts";
import type { Clock } from "../clock.ts";
import type { Db } from "../db/ports.ts";
import { parseInput } from "../http/validate.ts";
import { deleteAccount, finishDeletion, type DeletionDeps } from "./deletion.ts";
import { exportAccount, exportFileName, linksCsv } from "./export.ts";
import { exportWorkspace } from "./workspace-export.ts";
import { WorkspaceIdParams } from "../workspaces/id-params.ts";

const CONFIRM_MESSAGE = "Type the e-mail address of this account to confirm the deletion";
export const DeleteInput = z.object(
  { confirmEmail: z.string(CONFIRM_MESSAGE).max(320, CONFIRM_MESSAGE) },
  CONFIRM_MESSAGE,
);

/** What /api/account and /api/links/export.csv need. */
export type AccountRouteDeps = {
  db: Db;
  clock: Clock;
  log: Logger;
  /** The instance's address, for the short URLs in an export. */
  publicUrl: string;
  links: LinkDeps;
  deletion: DeletionDeps;
  session: SessionDeps;
};

export function accountRoutes({ links, deletion, session, ...deps }: AccountRouteDeps) {
  return new Elysia()
    .use(routeGuards(session))
    .get(
      "/api/account/export",
      async ({ user }) => {
        const document = await exportAccount(deps.db, deps.publicUrl, user, deps.clock.now());
        return attachment(
          JSON.stringify(document, null, 2),
          "application/json; charset=utf-8",
          exportFileName("json", new Date(deps.clock.now())),
        );
      },
      {
        user: true,
        doc: {
          id: "exportAccount",
          tag: "Account",
          summary: "All your data as one JSON document",
          description:
            "Profile, consents, subscriptions, payments, API token names, webhook endpoints (never their secrets), domains, every link (live and deleted, with expiresAt, maxClicks, expiredUrl, rules, hasPassword, never the password's hash, and health), per-day counts and the raw views still kept (addresses as stored: shortened).",
          answers: {
            200: { description: "A JSON attachment (linkprev-export-<date>.json)", contentType: "application/json" },
          },
        },
      },
    )
    .get(
      "/api/links/export.csv",
      async ({ workspace }) =>
        attachment(
          await linksCsv(links, workspace),
          "text/csv; charset=utf-8",
          exportFileName("csv", new Date(deps.clock.now())),
        ),
      {
        permission: "analytics.read",
        doc: {
          id: "exportLinksCsv",
          tag: "Account",
          summary: "Your live links as CSV",
          description:
            "Columns: slug, short URL, target, title, description, image URL, created, human views, bot views. Every cell quoted; a cell that starts with = + - @ is prefixed with ' (spreadsheet formulas). `linkprev links import` reads it back.",
          answers: { 200: { description: "A CSV attachment", contentType: "text/csv" } },
        },
      },
    )
    .get(
      "/api/workspaces/:id/export",
      async ({ workspace }) => {
        const document = await exportWorkspace(deps.db, deps.publicUrl, workspace, deps.clock.now());
        return attachment(
          JSON.stringify(document, null, 2),
          "application/json; charset=utf-8",
          `linkprev-${workspace.slug}-export-${new Date(deps.clock.now()).toISOString().slice(0, 10)}.json`,
        );
      },
      {
        permission: "workspace.export",
        params: WorkspaceIdParams,
        doc: {
          id: "exportWorkspace",
          tag: "Workspaces",
          summary: "A workspace's data as one JSON file (owners and admins)",
          description:
            "Its links, custom domains and webhooks (never a secret or verification token), members with their roles, and daily view counts.",
          errors: [403, 404],
          answers: { 200: { description: "A JSON attachment", contentType: "application/json" } },
        },
      },
    )
    .delete(
      "/api/account",
      async ({ viewer, deletingUserId, body, cookie, set }) => {
        // A retry after a deletion stopped part-way (the account is marked, so no longer signed in): finish it.
        if (deletingUserId !== null)
          await mappingStripeErrors(deps.log, () => finishDeletion(deletion, deletingUserId));
        else {
          // A token deletes an account only with workspace:admin (src/auth/token-scopes.ts).
          requireScope(viewer, "workspace.delete");
          const { confirmEmail } = parseInput(DeleteInput, body);
          await mappingStripeErrors(deps.log, () => deleteAccount(deletion, signedInUser(viewer), confirmEmail));
        }
        cookie[SESSION_COOKIE]!.remove();
        set.status = 204;
        return null;
      },
      {
        doc: {
          id: "deleteAccount",
          tag: "Account",
          summary: "Delete your account and everything in it",
          description:
            "Cancels the subscription at once, deletes links, views, images, sessions, tokens and consents; payment records stay without personal data. Signs you out. Safe to retry.",
          signIn: "required",
          body: { readByHandler: DeleteInput, example: { confirmEmail: "ana@example.com" } },
          errors: [400, 502],
          answers: { 204: "Done; no body" },
        },
      },
    );
}
