// The few screens of signing in that are not Google's own.
import type { SignInScreens } from "../auth/routes.ts";
import type { PageRenderer } from "./render.tsx";
import type { PageViewer } from "./viewer.ts";
import type { Acting } from "../workspaces/acting.ts";

/** For the sign-in routes (src/auth/routes.ts): their screens, signed out but for the sign-out question. */
export const signInScreens = (
  pages: PageRenderer,
  resolveViewer: (acting: Acting) => Promise<PageViewer | null>,
): SignInScreens => ({
  failed: (message, status = 400) =>
    pages.response(<SignInFailedPage message={message} />, { title: "Sign-in failed", status }),
  googleNotConfigured: () => pages.response(<GoogleNotConfiguredPage />, { title: "Sign in" }),
  signOut: async (acting) =>
    pages.response(<SignOutPage />, { title: "Sign out?", viewer: await resolveViewer(acting) }),
});

/** Where "Sign in" leads on an instance without Google: how to get in here, as a page of the site, not an error. */
export function GoogleNotConfiguredPage() {
  return (
    <section className="mx-auto max-w-xl space-y-4 py-16 text-center">
      <h1 className="text-3xl font-bold">Sign in to LinkPrev</h1>
      <p>Google sign-in is not configured on this server, so accounts here sign in with one-time links.</p>
      <h2 className="pt-4 text-xl font-semibold">Have an account here?</h2>
      <p>Ask the person who runs this instance for a sign-in link. A link works once, within 15 minutes.</p>
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
