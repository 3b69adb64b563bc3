// /api/auth/* (Google, sign-in links, logout, current user, consent) and /api/tokens. (/login/:token, the page
// holding a sign-in link, is src/pages/routes.ts.)
import { Elysia } from "elysia";
import { z } from "zod";
import { isOwnNavigation } from "../http/csrf.ts";
import { createGoogleSignIn } from "./google.ts";
import { consumeLoginLink } from "./login-links.ts";
import { asJson } from "../api-docs/json.ts";
import { routeGuards } from "./guards.ts";
import type { AuthRouteDeps } from "./route-deps.ts";
import { sessionCookieOptions } from "./plugin.ts";
import { createSession, deleteSession, SESSION_COOKIE } from "./sessions.ts";
import { findUser, publicUser, recordConsent, upsertUser } from "./users.ts";
import { UserSchema } from "./wire.ts";
import type { Acting } from "../workspaces/acting.ts";

const STATE_COOKIE = "lp_oauth_state";
const VERIFIER_COOKIE = "lp_oauth_verifier";
const OAUTH_COOKIE_SECONDS = 600;
const AFTER_SIGN_IN = "/admin";

const CONSENT_REQUIRED = "Please accept both terms and conditions and privacy policy to continue.";
export const ConsentInput = z.object(
  { termsAccepted: z.literal(true, CONSENT_REQUIRED), privacyAccepted: z.literal(true, CONSENT_REQUIRED) },
  CONSENT_REQUIRED,
);
export const LoginLinkInput = z.object({ token: z.string().min(1).max(200) });
/** Missing or mismatched, the sign-in fails closed (a page saying so), so neither is required here. */
const OAuthCallbackQuery = z.object({ code: z.string().optional(), state: z.string().optional() });

/** The screens a browser sees on the way to signing in, rendered by src/pages/sign-in.tsx (wired in src/app.ts). */
export type SignInScreens = {
  failed: (message: string, status?: number) => Response;
  googleNotConfigured: () => Response;
  /** Asks a signed-in user whether to sign out, when the sign-out link came from another site. */
  signOut: (acting: Acting) => Promise<Response>;
};

export function authRoutes({ session: sessions, ...deps }: AuthRouteDeps, screens: SignInScreens) {
  const google = deps.google ? createGoogleSignIn(deps.google, sessions.publicUrl) : null;
  const failedPage = screens.failed;

  const signOut = async (cookie: Record<string, { value?: unknown; remove: () => unknown }>) => {
    const token = cookie[SESSION_COOKIE]?.value;
    if (typeof token === "string" && token) await deleteSession(sessions.db, token);
    cookie[SESSION_COOKIE]?.remove();
  };

  return (
    new Elysia()
      .use(routeGuards(sessions))
      .get(
        "/api/auth/google",
        async ({ ip, cookie, redirect, viewer }) => {
          // Signed in already (a bookmark, the landing page in an old tab): the dashboard, not a second sign-in.
          if (viewer?.via === "session") return redirect(AFTER_SIGN_IN, 302);
          await deps.authLimiter.hit(ip);
          if (!google) return screens.googleNotConfigured();
          const { url, state, codeVerifier } = google.start();
          const options = {
            httpOnly: true,
            sameSite: "lax" as const,
            secure: sessions.secureCookies,
            path: "/",
            maxAge: OAUTH_COOKIE_SECONDS,
          };
          cookie[STATE_COOKIE]!.set({ value: state, ...options });
          cookie[VERIFIER_COOKIE]!.set({ value: codeVerifier, ...options });
          return redirect(url.toString(), 302);
        },
        {
          doc: {
            id: "googleSignIn",
            tag: "Sign-in",
            summary: "Start signing in with Google",
            description:
              "For browsers: a redirect to Google, or a page saying how to sign in when Google sign-in is not configured; signed in already, a redirect to the dashboard.",
            errors: [429],
            answers: {
              302: "To Google, or signed in already to /admin",
              200: {
                description: "How to sign in on this instance (Google sign-in is not configured)",
                contentType: "text/html",
              },
            },
          },
        },
      )
      .get(
        "/api/auth/google/callback",
        async ({ ip, query, cookie, redirect }) => {
          await deps.authLimiter.hit(ip);
          if (!google) return failedPage("Google sign-in is not configured on this server.", 404);
          const expectedState = cookie[STATE_COOKIE]?.value;
          const codeVerifier = cookie[VERIFIER_COOKIE]?.value;
          cookie[STATE_COOKIE]!.remove();
          cookie[VERIFIER_COOKIE]!.remove();
          const { code, state } = query;
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
            deps.log.error("Google sign-in failed", error);
            return failedPage("Google did not confirm the sign-in. Please try again.");
          }
          if (!profile)
            return failedPage(
              "Your Google e-mail address is not verified. Verify it with Google, then sign in again.",
              403,
            );
          const user = await upsertUser(deps.database, profile, sessions.clock.now());
          const session = await createSession(sessions.db, user.id, sessions.clock.now());
          cookie[SESSION_COOKIE]!.set({ value: session.token, ...sessionCookieOptions(sessions, session.expiresAt) });
          return redirect(AFTER_SIGN_IN, 302);
        },
        {
          query: OAuthCallbackQuery,
          doc: {
            id: "googleCallback",
            tag: "Sign-in",
            summary: "Where Google sends the browser back",
            errors: [429],
            answers: {
              302: "Signed in: to /admin, with the session cookie",
              400: { description: "The sign-in failed", contentType: "text/html" },
              404: { description: "Google sign-in is not configured", contentType: "text/html" },
            },
          },
        },
      )
      .post(
        "/api/auth/login-link",
        async ({ body, cookie, redirect }) => {
          const userId = await consumeLoginLink(sessions.db, body.token, sessions.clock.now());
          if (userId === null)
            return failedPage("This sign-in link is invalid, already used or expired. Ask for a new one.");
          const session = await createSession(sessions.db, userId, sessions.clock.now());
          cookie[SESSION_COOKIE]!.set({ value: session.token, ...sessionCookieOptions(sessions, session.expiresAt) });
          return redirect(AFTER_SIGN_IN, 303);
        },
        {
          // Every attempt counts, well-formed or not: the limit runs before the schema judges the body.
          transform: ({ ip }) => deps.authLimiter.hit(ip),
          body: LoginLinkInput,
          doc: {
            id: "useLoginLink",
            tag: "Sign-in",
            summary: "Sign in with a one-time link's token",
            body: { form: true },
            errors: [403, 429],
            answers: {
              303: "Signed in: to /admin, with the session cookie",
              400: { description: "The link is invalid, used or expired", contentType: "text/html" },
            },
          },
        },
      )
      // A GET signs out only when the browser says it did not come from another site (or says nothing: scripts,
      // older browsers); otherwise any page could sign our users out with a link. They get a button instead.
      .get(
        "/api/auth/logout",
        async ({ request, viewer, cookie, redirect }) => {
          if (viewer?.via === "session" && !isOwnNavigation(request)) return screens.signOut(viewer);
          await signOut(cookie);
          return redirect("/", 302);
        },
        {
          doc: {
            id: "signOut",
            tag: "Sign-in",
            summary: "Sign out",
            description:
              "Signs out when the browser says the request did not come from another site (Sec-Fetch-Site same-origin or none, or no such header); otherwise a signed-in browser gets a page asking to confirm with POST /api/auth/logout.",
            answers: {
              302: "To the home page, the session ended",
              200: {
                description: "Sign out? (the request came from another site): a button that posts to /api/auth/logout",
                contentType: "text/html",
              },
            },
          },
        },
      )
      // The button's form; a cross-site POST with the cookie is refused like every write (src/http/csrf.ts).
      .post(
        "/api/auth/logout",
        async ({ cookie, redirect }) => {
          await signOut(cookie);
          return redirect("/", 303);
        },
        {
          doc: {
            id: "signOutConfirmed",
            tag: "Sign-in",
            summary: "Sign out (the confirmation page's button)",
            errors: [403],
            answers: { 303: "To the home page, the session ended" },
          },
        },
      )
      .get("/api/auth/user", async ({ user }) => asJson(await publicUser(sessions.db, user)), {
        user: true,
        response: { 200: UserSchema },
        doc: { id: "currentUser", tag: "Account", summary: "Who you are signed in as", answers: { 200: "You" } },
      })
      .post(
        "/api/auth/consent",
        async ({ user }) => {
          await recordConsent(sessions.db, user.id);
          return asJson(await publicUser(sessions.db, (await findUser(sessions.db, user.id))!));
        },
        {
          user: true,
          body: ConsentInput,
          response: { 200: UserSchema },
          doc: {
            id: "recordConsent",
            tag: "Account",
            summary: "Accept the terms and the privacy policy",
            body: { example: { termsAccepted: true, privacyAccepted: true } },
            errors: [400, 403],
            answers: { 200: "You, consent recorded" },
          },
        },
      )
  );
}
