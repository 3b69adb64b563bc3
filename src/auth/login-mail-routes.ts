// POST /api/auth/login-link/email: the sign-in page's "E-mail me a sign-in link" (with SMTP_URL set). It answers the
// same page, as fast, whether or not an account uses the address, so that it never tells which addresses have one.
// An address with a pending workspace invite gets its account here, so that the invitee can sign in to accept.
import { Elysia } from "elysia";
import { z } from "zod";
import { sendInBackground, type Mailer } from "../mail/mailer.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import { emailAddress } from "../http/validate.ts";
import type { Database } from "../db/ports.ts";
import { isInvited } from "../members/pending-invites.ts";
import type { Logger } from "../observability/log.ts";
import { routeGuards } from "./guards.ts";
import { loginLinkMail } from "./login-link-mail.ts";
import { createLoginLink } from "./login-links.ts";
import type { SessionDeps } from "./session-deps.ts";
import { findUserIdByEmail, upsertUser } from "./users.ts";

export type LoginMailRouteDeps = {
  session: SessionDeps;
  /** Where an invitee's account is made (its .db is the session's). */
  database: Database;
  /** null without SMTP_URL: the route then says that sign-in by e-mail is not offered here. */
  mailer: Mailer | null;
  /** Requests per client, shared with the other sign-in endpoints. */
  authLimiter: RateLimiter;
  /** Messages per address: LOGIN_MAILS_PER_HOUR. */
  mailLimiter: RateLimiter;
  log: Logger;
};

/** The pages this route answers with (src/pages/sign-in.tsx). */
export type LoginMailScreens = {
  sent: (email: string) => Response;
  failed: (message: string, status?: number) => Response;
};

const LoginMailInput = z.object({ email: emailAddress });

export function loginMailRoutes(deps: LoginMailRouteDeps, screens: LoginMailScreens) {
  const { session } = deps;
  /** The account the address signs in to: an existing one, or a new one for an invitee. */
  const accountFor = async (email: string): Promise<number | null> => {
    const now = session.clock.now();
    const existing = await findUserIdByEmail(session.db, email);
    if (existing !== null || !(await isInvited(session.db, email, now))) return existing;
    return (await upsertUser(deps.database, { email, firstName: null, lastName: null, profileImageUrl: null }, now)).id;
  };
  return new Elysia().use(routeGuards(session)).post(
    "/api/auth/login-link/email",
    async ({ body }) => {
      if (!deps.mailer) return screens.failed("Sign-in links by e-mail are not offered on this server.", 404);
      await deps.mailLimiter.hit(
        body.email,
        "login-mail:",
        "Several sign-in links went to this address within the hour. Use the newest, or wait an hour.",
      );
      const userId = await accountFor(body.email);
      if (userId !== null) {
        const link = await createLoginLink(session.db, userId, session.publicUrl, session.clock.now());
        sendInBackground(deps.mailer, loginLinkMail(body.email, link, session.publicUrl), deps.log, "a sign-in link");
      }
      return screens.sent(body.email);
    },
    {
      // Every attempt counts, well-formed or not: the limit runs before the schema judges the body.
      transform: ({ ip }) => deps.authLimiter.hit(ip),
      body: LoginMailInput,
      doc: {
        id: "emailLoginLink",
        tag: "Sign-in",
        summary: "E-mail me a sign-in link",
        description:
          "For the sign-in page's form, with SMTP_URL set: when an account uses the address, or a workspace invite awaits it (the account is then made), a one-time sign-in link (15 minutes) is e-mailed to it. The answer is the same page either way, so it never tells whether an account uses an address.",
        body: { form: true, example: { email: "ana@example.com" } },
        errors: [400, 403, 429],
        answers: {
          200: {
            description: "Check your inbox (whether or not an account uses the address)",
            contentType: "text/html",
          },
          404: { description: "Sign-in by e-mail is not offered on this server", contentType: "text/html" },
        },
      },
    },
  );
}
