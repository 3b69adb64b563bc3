// Resolves who is asking, once per request: an API token (Authorization: Bearer) or the session cookie.
// Also refuses cross-site writes made with the cookie (CSRF); bearer calls cannot be forged by a browser.
import { Elysia } from "elysia";
import type { User } from "../db/tables.ts";
import { isCrossSiteWrite } from "../http/csrf.ts";
import { forbidden } from "../http/errors.ts";
import { requestFacts } from "../observability/request-facts.ts";
import { userIdForApiToken } from "./api-tokens.ts";
import { SESSION_COOKIE, validateSession } from "./sessions.ts";
import type { SessionDeps } from "./session-deps.ts";
import { findUser, hasConsent } from "./users.ts";
import { SUSPENDED_MESSAGE } from "../safety/suspend-user.ts";

export type Viewer = { user: User; via: "session" | "token" };

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

export const authPlugin = (deps: SessionDeps) =>
  new Elysia({ name: "auth" })
    .use(requestFacts())
    .derive({ as: "global" }, async ({ request, cookie, origin }) => {
      const ip = origin.clientAddress;
      const authorization = request.headers.get("authorization");
      if (authorization?.toLowerCase().startsWith("bearer ")) {
        const userId = await userIdForApiToken(deps.db, authorization.slice(7).trim(), deps.clock.now());
        const user = userId === null ? undefined : await findUser(deps.db, userId);
        if (user?.deletingSince) return { ip, viewer: null as Viewer | null, deletingUserId: user.id as number | null };
        if (user?.suspendedAt) throw forbidden(SUSPENDED_MESSAGE);
        return { ip, viewer: user ? ({ user, via: "token" } as Viewer) : null, deletingUserId: null as number | null };
      }
      const token = cookie[SESSION_COOKIE]?.value;
      if (typeof token === "string" && token !== "") {
        const session = await validateSession(deps.db, token, deps.clock.now());
        const user = session ? await findUser(deps.db, session.userId) : undefined;
        // An account being deleted is signed out everywhere; only a retry of its deletion may name it.
        if (user?.deletingSince) return { ip, viewer: null as Viewer | null, deletingUserId: user.id as number | null };
        if (user?.suspendedAt) throw forbidden(SUSPENDED_MESSAGE);
        if (session && user) {
          if (session.extended)
            cookie[SESSION_COOKIE]!.set({ value: token, ...sessionCookieOptions(deps, session.expiresAt) });
          return { ip, viewer: { user, via: "session" } as Viewer, deletingUserId: null as number | null };
        }
        cookie[SESSION_COOKIE]!.remove();
      }
      return { ip, viewer: null as Viewer | null, deletingUserId: null as number | null };
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
