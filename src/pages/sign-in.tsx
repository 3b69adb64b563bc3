// The few screens of signing in that are not Google's own.
import type { LoginMailScreens } from "../auth/login-mail-routes.ts";
import type { SignInScreens } from "../auth/routes.ts";
import type { PageRenderer } from "./render.tsx";
import type { PageViewer } from "./viewer.ts";
import type { Acting } from "../workspaces/acting.ts";

/**
 * For the sign-in routes (src/auth/routes.ts): their screens, signed out but for the sign-out question. `byMail`:
 * whether sign-in links can be asked for by e-mail (SMTP_URL).
 */
export const signInScreens = (
  pages: PageRenderer,
  resolveViewer: (acting: Acting) => Promise<PageViewer | null>,
  byMail: boolean,
): SignInScreens => ({
  failed: (message, status = 400) =>
    pages.response(<SignInFailedPage message={message} />, { title: "Sign-in failed", status }),
  googleNotConfigured: () => pages.response(<GoogleNotConfiguredPage byMail={byMail} />, { title: "Sign in" }),
  signOut: async (acting) =>
    pages.response(<SignOutPage />, { title: "Sign out?", viewer: await resolveViewer(acting) }),
});

/** For the e-mailed sign-in link's route (src/auth/login-mail-routes.ts). */
export const loginMailScreens = (pages: PageRenderer): LoginMailScreens => ({
  sent: (email) => pages.response(<LoginMailSentPage email={email} />, { title: "Check your inbox" }),
  failed: (message, status = 400) =>
    pages.response(<SignInFailedPage message={message} />, { title: "Sign-in failed", status }),
});

/** Where "Sign in" leads on an instance without Google: how to get in here, as a page of the site, not an error. */
export function GoogleNotConfiguredPage({ byMail }: { byMail: boolean }) {
  return (
    <section className="mx-auto max-w-xl space-y-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Sign in to LinkPrev</h1>
      <p>Google sign-in is not configured on this server, so accounts here sign in with one-time links.</p>
      <h2 className="pt-4 text-xl font-semibold">Have an account here?</h2>
      {byMail && <p>Invited to a workspace? Use the address the invite was sent to.</p>}
      {byMail && (
        <form method="post" action="/api/auth/login-link/email" className="space-y-3">
          <p>
            <label htmlFor="sign-in-email" className="block font-semibold">
              Your e-mail address
            </label>
            <input
              id="sign-in-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              className="mt-1 w-full max-w-sm rounded-md border border-gray-400 px-3 py-2"
            />
          </p>
          <button
            className="inline-block rounded-md bg-indigo-600 px-5 py-2 font-semibold text-white hover:bg-indigo-500"
            type="submit"
          >
            E-mail me a sign-in link
          </button>
        </form>
      )}
      <p>
        {byMail ? "Or ask" : "Ask"} the person who runs this instance for a sign-in link. A link works once, within 15
        minutes.
      </p>
      <h2 className="pt-4 text-xl font-semibold">Run this instance?</h2>
      <p>Make a link on the server for any e-mail address (the account is created if it is new):</p>
      <p>
        <code className="rounded bg-gray-100 px-2 py-1 text-sm">linkprev admin login-link --email you@example.com</code>
      </p>
    </section>
  );
}

export function LoginLinkPage({ token }: { token: string }) {
  return (
    <section className="space-y-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Sign in to LinkPrev</h1>
      {/* A form, not a plain GET: link previewers that fetch URLs pasted in chats must not use up the link. */}
      <form method="post" action="/api/auth/login-link">
        <input type="hidden" name="token" value={token} />
        <button
          className="inline-block rounded-md bg-indigo-600 px-5 py-2 font-semibold text-white hover:bg-indigo-500"
          type="submit"
        >
          Sign in
        </button>
      </form>
    </section>
  );
}

/** The same page whether or not an account uses the address: it must not tell which addresses have one. */
export function LoginMailSentPage({ email }: { email: string }) {
  return (
    <section className="mx-auto max-w-xl space-y-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Check your inbox</h1>
      <p>
        If an account here uses <strong>{email}</strong>, a sign-in link is on its way to it. The link works once,
        within 15 minutes.
      </p>
      <p>
        Nothing after a few minutes? Look in your spam folder, or <a href="/api/auth/google">ask for another link</a>.
      </p>
    </section>
  );
}

export function SignInFailedPage({ message }: { message: string }) {
  return (
    <section className="space-y-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Sign-in failed</h1>
      <p>{message}</p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </section>
  );
}

/**
 * GET /api/auth/logout reached from another site (a link or redirect there): signing out takes this button, so
 * that no other site can sign our users out.
 */
export function SignOutPage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">Sign out?</h1>
      <p>Another site sent you here. Sign out of LinkPrev only if you meant to.</p>
      <form method="post" action="/api/auth/logout">
        <button
          className="inline-block rounded-md bg-indigo-600 px-5 py-2 font-semibold text-white hover:bg-indigo-500"
          type="submit"
        >
          Sign out
        </button>
      </form>
      <p className="mt-4">
        <a className="inline-block px-3 py-2 text-indigo-700 underline" href="/admin">
          No, back to my links
        </a>
      </p>
    </section>
  );
}
