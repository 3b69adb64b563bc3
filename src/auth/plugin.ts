// Resolves who is asking, once per request: an API token (Authorization: Bearer) or the session cookie.
// Also refuses cross-site writes made with the cookie (CSRF); bearer calls cannot be forged by a browser.
import { Elysia } from "elysia";
import { actingMembership, namedWorkspace } from "../workspaces/acting-workspace.ts";
import type { Acting } from "../workspaces/acting.ts";
import { isCrossSiteWrite } from "../http/csrf.ts";
import { forbidden } from "../http/errors.ts";
import { requestFacts } from "../observability/request-facts.ts";
import { apiTokenOwner } from "./api-tokens.ts";
import type { Scope } from "./token-scopes.ts";
import { SESSION_COOKIE, validateSession } from "./sessions.ts";
import type { SessionDeps } from "./session-deps.ts";
import { findUser, hasConsent } from "./users.ts";
import { SUSPENDED_MESSAGE } from "../safety/suspend-user.ts";

/** Who is asking, how, and the workspace they act in with their role there (actingMembership below). */
export type Viewer = Acting & {
  via: "session" | "token";
  /** A token's scopes (src/auth/token-scopes.ts); null for a session, and for a token made before scopes. */
  scopes: Scope[] | null;
  /** The API token that acts, for the audit log; null for a session. */
  tokenId: number | null;
};

export function sessionCookieOptions(session: SessionDeps, expires: Date) {
  return { httpOnly: true, sameSite: "lax" as const, secure: session.secureCookies, path: "/", expires };
}

const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/**
 * API writes allowed before the terms are accepted: accepting them, signing in and out, and deleting the account
 * (the export is a read).
 */
const WITHOUT_CONSENT = new Set([
  "POST /api/auth/consent",
  "POST /api/auth/login-link",
  "POST /api/auth/login-link/email",
  "POST /api/auth/logout",
  "DELETE /api/account",
]);

/** A write through the API by someone who has not accepted the terms: the browser asks first, the API must too. */
function needsConsentFirst(request: Request): boolean {
  if (!WRITES.has(request.method)) return false;
  const path = new URL(request.url).pathname;
  return path.startsWith("/api/") && !WITHOUT_CONSENT.has(`${request.method} ${path}`);
}

/**
 * The cookie that remembers a browser's current workspace (its slug); a workspace the request names wins over it
 * (src/workspaces/acting-workspace.ts).
 */
export const WORKSPACE_COOKIE = "workspace";

const signedOut = { viewer: null as Viewer | null, deletingUserId: null as number | null };

export const authPlugin = (deps: SessionDeps) =>
  new Elysia({ name: "auth" })
    .use(requestFacts())
    .derive({ as: "global" }, async ({ request, cookie, origin }) => {
      const ip = origin.clientAddress;
      const named = namedWorkspace(new URL(request.url));
      const authorization = request.headers.get("authorization");
      if (authorization?.toLowerCase().startsWith("bearer ")) {
        const owner = await apiTokenOwner(deps.db, authorization.slice(7).trim(), deps.clock.now());
        const user = owner === null ? undefined : await findUser(deps.db, owner.userId);
        if (user?.deletingSince) return { ip, ...signedOut, deletingUserId: user.id as number | null };
        if (user?.suspendedAt) throw forbidden(SUSPENDED_MESSAGE);
        const acting = user && (await actingMembership(deps.db, user, named, undefined, owner!.workspaceId));
        return {
          ip,
          ...signedOut,
          viewer: acting
            ? ({ user, via: "token", scopes: owner!.scopes, tokenId: owner!.tokenId, ...acting } as Viewer)
            : null,
        };
      }
      const token = cookie[SESSION_COOKIE]?.value;
      if (typeof token === "string" && token !== "") {
        const session = await validateSession(deps.db, token, deps.clock.now());
        const user = session ? await findUser(deps.db, session.userId) : undefined;
        // An account being deleted is signed out everywhere; only a retry of its deletion may name it.
        if (user?.deletingSince) return { ip, ...signedOut, deletingUserId: user.id as number | null };
        if (user?.suspendedAt) throw forbidden(SUSPENDED_MESSAGE);
        if (session && user) {
          if (session.extended)
            cookie[SESSION_COOKIE]!.set({ value: token, ...sessionCookieOptions(deps, session.expiresAt) });
          const remembered = cookie[WORKSPACE_COOKIE]?.value;
          const acting = await actingMembership(
            deps.db,
            user,
            named,
            typeof remembered === "string" ? remembered : undefined,
            null,
          );
          if (acting)
            return {
              ip,
              ...signedOut,
              viewer: { user, via: "session", scopes: null, tokenId: null, ...acting } as Viewer,
            };
        }
        cookie[SESSION_COOKIE]!.remove();
      }
      return { ip, ...signedOut };
    })
    // Before the route's schemas judge the input: a refused write is refused whatever it holds.
    .onTransform({ as: "global" }, async ({ request, viewer }) => {
      // A bearer token is never attached by a browser on its own, so it cannot be forged cross-site.
      if (viewer?.via !== "token" && isCrossSiteWrite(request, deps.publicUrl, viewer?.via === "session")) {
        throw forbidden(
          "Cross-site request refused: this was sent from another site. Open the page on this site and send it from there.",
        );
      }
      if (viewer && needsConsentFirst(request) && !(await hasConsent(deps.db, viewer.user.id))) {
        throw forbidden(
          `Accept the terms first: open ${deps.publicUrl}/admin in a browser, or POST ${deps.publicUrl}/api/auth/consent with {"termsAccepted": true, "privacyAccepted": true}`,
        );
      }
    });
