// Who may call an /api route, declared on the route (docs/decisions/0056): `{ user: true }` for any signed-in caller,
// `{ permission: "links.write" }` for a caller whose role in the acting workspace may do that (the one table:
// src/workspaces/permissions.ts). Both hand the handler `user`, `workspace` and `role`, and the three as `acting` (src/auth/plugin.ts).
// The plugin also brings `doc` (src/api-docs/documented.ts): Elysia types the macros of one plugin only.
import { Elysia } from "elysia";
import { documented, USER_SECURITY } from "../api-docs/documented.ts";
import type { User } from "../db/tables.ts";
import { forbidden, unauthorized } from "../http/errors.ts";
import type { Acting } from "../workspaces/acting.ts";
import { recordWrite } from "../workspaces/audit-record.ts";
import { type Action, may } from "../workspaces/permissions.ts";
import { authPlugin, type Viewer } from "./plugin.ts";
import { missingScope, tokenMay } from "./token-scopes.ts";
import type { SessionDeps } from "./session-deps.ts";

/** What a route may require of its caller beyond being signed in. */
export type Permission = Action;

/** The signed-in caller, or a 401. */
function signedIn(viewer: Viewer | null): Acting {
  if (!viewer) throw unauthorized("You are not signed in. Sign in and try again.");
  return { user: viewer.user, workspace: viewer.workspace, role: viewer.role };
}

/** The signed-in user, or a 401 (for the one route that also serves a caller who is not: DELETE /api/account). */
export const signedInUser = (viewer: Viewer | null): User => signedIn(viewer).user;

/** A token's scopes allow `permission` (a session's always do), else a 403 naming the scope: the guard's check, and
 * the one a route makes itself where whether it needs `permission` depends on what it is asked. */
export function requireScope(viewer: Viewer | null, permission: Permission): void {
  if (viewer && !tokenMay(viewer.scopes, permission)) throw forbidden(missingScope(permission));
}

function permitted(viewer: Viewer | null, permission: Permission): Acting {
  const acting = signedIn(viewer);
  if (!may(acting.role, permission)) throw forbidden("You may not do this here.");
  requireScope(viewer, permission);
  return acting;
}

/** Whether a signed-in caller may do `permission` here, for a route open to anyone that does more for some. */
export const viewerMay = (viewer: Viewer | null, permission: Permission): viewer is Viewer =>
  viewer !== null && may(viewer.role, permission) && tokenMay(viewer.scopes, permission);

/** The context's parts one by one, and whole as `acting` for the operations that take it. */
const withActing = (acting: Acting) => ({ ...acting, acting });

type HandledContext = {
  request: Request;
  viewer: Viewer | null;
  params: Record<string, string>;
  body: unknown;
  set: { status?: number | string };
  responseValue: unknown;
};

/**
 * Every successful write of a guarded route leaves one audit row in the acting workspace, right after its handler
 * (docs/decisions/0068); the few that are no workspace's write are named in src/workspaces/audit-record.ts.
 */
const recordingWrites =
  (session: SessionDeps) =>
  async (context: HandledContext): Promise<void> => {
    const { request, viewer, set } = context;
    const failed = typeof set.status === "number" && set.status >= 400;
    if (request.method === "GET" || failed || !viewer || !("operationId" in context)) return;
    await recordWrite(session.db, {
      acting: viewer,
      tokenId: viewer.tokenId,
      operationId: String(context.operationId),
      params: context.params,
      body: context.body,
      answer: context.responseValue,
      at: session.clock.now(),
    });
  };

/**
 * Each guard also documents the route as needing a signed-in caller (src/api-docs/openapi.ts adds its 401).
 * The check runs twice on purpose: in `transform`, so that a caller who is not signed in hears 401 before the route's
 * schemas judge the input (as before the schemas moved onto the routes), and in `resolve`, which types the context.
 */
export const routeGuards = (session: SessionDeps) =>
  new Elysia({ name: "route-guards" })
    .use(authPlugin(session))
    .use(documented)
    .macro({
      user: {
        detail: { security: USER_SECURITY },
        transform: ({ viewer }) => void signedIn(viewer),
        resolve: ({ viewer }) => withActing(signedIn(viewer)),
        afterHandle: recordingWrites(session),
      },
      permission: (permission: Permission) => ({
        detail: { security: USER_SECURITY },
        transform: ({ viewer }) => void permitted(viewer, permission),
        resolve: ({ viewer }) => withActing(permitted(viewer, permission)),
        afterHandle: recordingWrites(session),
      }),
    });
