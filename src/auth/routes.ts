// /api/auth/* (Google, sign-in links, logout, current user, consent) and /api/tokens. (/login/:token, the page
// holding a sign-in link, is src/pages/routes.ts.)
import { Elysia } from "elysia";
import { z } from "zod";
import type { User } from "../db/tables.ts";
import type { Services } from "../services.ts";
import { isOwnNavigation } from "../http/csrf.ts";
import { WITHOUT_NUL } from "../http/text.ts";
import { pathId } from "../http/validate.ts";
import { createApiToken, listApiTokens, revokeApiToken } from "./api-tokens.ts";
import { createGoogleSignIn } from "./google.ts";
import { consumeLoginLink } from "./login-links.ts";
import { routeGuards } from "./guards.ts";
import { sessionCookieOptions } from "./plugin.ts";
import { createSession, deleteSession, SESSION_COOKIE } from "./sessions.ts";
import { findUser, publicUser, recordConsent, upsertUser } from "./users.ts";

const STATE_COOKIE = "lp_oauth_state";
const VERIFIER_COOKIE = "lp_oauth_verifier";
const OAUTH_COOKIE_SECONDS = 600;
const AFTER_SIGN_IN = "/admin";

const CONSENT_REQUIRED = "Please accept both terms and conditions and privacy policy to continue.";
export const ConsentInput = z.object(
  { termsAccepted: z.literal(true, CONSENT_REQUIRED), privacyAccepted: z.literal(true, CONSENT_REQUIRED) },
  CONSENT_REQUIRED,
);
export const TokenName = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be 100 characters or less")
    .regex(WITHOUT_NUL, "Name contains a character that is not allowed"),
});
export const LoginLinkInput = z.object({ token: z.string().min(1).max(200) });
const TokenIdParams = z.object({ id: pathId("Token not found").describe("The token's id") });

/** The screens a browser sees on the way to signing in, rendered by src/pages/sign-in.tsx (wired in src/app.ts). */
export type SignInScreens = {
  failed: (message: string, status?: number) => Response;
  googleNotConfigured: () => Response;
  /** Asks a signed-in user whether to sign out, when the sign-out link came from another site. */
  signOut: (user: User) => Promise<Response>;
};

export function authRoutes(services: Services, screens: SignInScreens) {
  const google = services.config.google ? createGoogleSignIn(services.config.google, services.config.publicUrl) : null;
  const failedPage = screens.failed;

  const signOut = async (cookie: Record<string, { value?: unknown; remove: () => unknown }>) => {
    const token = cookie[SESSION_COOKIE]?.value;
    if (typeof token === "string" && token) await deleteSession(services.db, token);
    cookie[SESSION_COOKIE]?.remove();
  };

  return (
    new Elysia()
      .use(routeGuards(services))
      .get("/api/auth/google", async ({ ip, cookie, redirect, viewer }) => {
        // Signed in already (a bookmark, the landing page in an old tab): the dashboard, not a second sign-in.
        if (viewer?.via === "session") return redirect(AFTER_SIGN_IN, 302);
        await services.authLimiter.hit(ip);
        if (!google) return screens.googleNotConfigured();
        const { url, state, codeVerifier } = google.start();
        const options = {
          httpOnly: true,
          sameSite: "lax" as const,
          secure: services.config.secureCookies,
          path: "/",
          maxAge: OAUTH_COOKIE_SECONDS,
        };
        cookie[STATE_COOKIE]!.set({ value: state, ...options });
        cookie[VERIFIER_COOKIE]!.set({ value: codeVerifier, ...options });
        return redirect(url.toString(), 302);
      })
      .get("/api/auth/google/callback", async ({ ip, query, cookie, redirect }) => {
        await services.authLimiter.hit(ip);
        if (!google) return failedPage("Google sign-in is not configured on this server.", 404);
        const expectedState = cookie[STATE_COOKIE]?.value;
        const codeVerifier = cookie[VERIFIER_COOKIE]?.value;
        cookie[STATE_COOKIE]!.remove();
        cookie[VERIFIER_COOKIE]!.remove();
        const { code, state } = query as Record<string, string | undefined>;
        // Fail closed: anything missing or mismatched ends here, with no session.
        if (
          !code ||
          !state ||
          typeof expectedState !== "string" ||
          typeof codeVerifier !== "string" ||
          state !== expectedState
        ) {
          return failedPage("The sign-in request expired or did not come from this browser. Please try again.");
        }
        let profile;
        try {
          profile = await google.finish(code, codeVerifier);
        } catch (error) {
          console.error("Google sign-in failed:", error instanceof Error ? error.message : error);
          return failedPage("Google did not confirm the sign-in. Please try again.");
        }
        if (!profile)
          return failedPage(
            "Your Google e-mail address is not verified. Verify it with Google, then sign in again.",
            403,
          );
        const user = await upsertUser(services.database, profile);
        const session = await createSession(services.db, user.id);
        cookie[SESSION_COOKIE]!.set({ value: session.token, ...sessionCookieOptions(services, session.expiresAt) });
        return redirect(AFTER_SIGN_IN, 302);
      })
      .post(
        "/api/auth/login-link",
        async ({ ip, body, cookie, redirect }) => {
          await services.authLimiter.hit(ip);
          const userId = await consumeLoginLink(services.db, body.token);
          if (userId === null)
            return failedPage("This sign-in link is invalid, already used or expired. Ask for a new one.");
          const session = await createSession(services.db, userId);
          cookie[SESSION_COOKIE]!.set({ value: session.token, ...sessionCookieOptions(services, session.expiresAt) });
          return redirect(AFTER_SIGN_IN, 303);
        },
        { body: LoginLinkInput },
      )
      // A GET signs out only when the browser says it did not come from another site (or says nothing: scripts,
      // older browsers); otherwise any page could sign our users out with a link. They get a button instead.
      .get("/api/auth/logout", async ({ request, viewer, cookie, redirect }) => {
        if (viewer?.via === "session" && !isOwnNavigation(request)) return screens.signOut(viewer.user);
        await signOut(cookie);
        return redirect("/", 302);
      })
      // The button's form; a cross-site POST with the cookie is refused like every write (src/http/csrf.ts).
      .post("/api/auth/logout", async ({ cookie, redirect }) => {
        await signOut(cookie);
        return redirect("/", 303);
      })
      .get("/api/auth/user", ({ user }) => publicUser(services.db, user), { user: true })
      .post(
        "/api/auth/consent",
        async ({ user }) => {
          await recordConsent(services.db, user.id);
          return publicUser(services.db, (await findUser(services.db, user.id))!);
        },
        { user: true, body: ConsentInput },
      )
      .get("/api/tokens", ({ user }) => listApiTokens(services.db, user.id), { user: true })
      .post(
        "/api/tokens",
        async ({ user, body, ip, set }) => {
          await services.authLimiter.hit(ip);
          set.status = 201;
          return createApiToken(services.db, user.id, body.name);
        },
        { user: true, body: TokenName },
      )
      .delete(
        "/api/tokens/:id",
        async ({ user, params, set }) => {
          await revokeApiToken(services.db, user.id, params.id);
          set.status = 204;
          return null;
        },
        { user: true, params: TokenIdParams },
      )
  );
}
