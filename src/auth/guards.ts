// Who may call an /api route, declared on the route (docs/decisions/0056): `{ user: true }` for any signed-in caller,
// `{ permission: "links.write" }` for a caller who may change that kind of thing. Both hand the handler `user`.
// The plugin also brings `doc` (src/api-docs/documented.ts): Elysia types the macros of one plugin only.
import { Elysia } from "elysia";
import { documented, USER_SECURITY } from "../api-docs/documented.ts";
import type { User } from "../db/tables.ts";
import { forbidden, unauthorized } from "../http/errors.ts";
import { authPlugin, type Viewer } from "./plugin.ts";
import type { SessionDeps } from "./session-deps.ts";

/** What a route may require of its caller beyond being signed in. */
export type Permission = "links.write" | "domains.write" | "webhooks.write" | "billing.manage";
const EVERY_PERMISSION: ReadonlySet<Permission> = new Set([
  "links.write",
  "domains.write",
  "webhooks.write",
  "billing.manage",
]);

/**
 * The seam for workspaces (issue 50): today every user is the owner of their own data and holds every permission;
 * a workspace's member will hold those of their role there.
 */
const permissionsOf = (_user: User): ReadonlySet<Permission> => EVERY_PERMISSION;

/** The signed-in user, or a 401 (for the one route that also serves a caller who is not: DELETE /api/account). */
export function signedInUser(viewer: Viewer | null): User {
  if (!viewer) throw unauthorized("You are not signed in. Sign in and try again.");
  return viewer.user;
}

function permittedUser(viewer: Viewer | null, permission: Permission): User {
  const user = signedInUser(viewer);
  if (!permissionsOf(user).has(permission)) throw forbidden("You may not do this here.");
  return user;
}

/**
 * Each guard also documents the route as needing a signed-in caller (src/api-docs/openapi.ts adds its 401).
 * The check runs twice on purpose: in `transform`, so that a caller who is not signed in hears 401 before the route's
 * schemas judge the input (as before the schemas moved onto the routes), and in `resolve`, which types `user`.
 */
export const routeGuards = (session: SessionDeps) =>
  new Elysia({ name: "route-guards" })
    .use(authPlugin(session))
    .use(documented)
    .macro({
      user: {
        detail: { security: USER_SECURITY },
        transform: ({ viewer }) => void signedInUser(viewer),
        resolve: ({ viewer }) => ({ user: signedInUser(viewer) }),
      },
      permission: (permission: Permission) => ({
        detail: { security: USER_SECURITY },
        transform: ({ viewer }) => void permittedUser(viewer, permission),
        resolve: ({ viewer }) => ({ user: permittedUser(viewer, permission) }),
      }),
    });
