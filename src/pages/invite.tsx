// /invites/:token, where an invite's mail (or the URL an inviter handed on) leads: who invited whom to what, and
// the one way on from where the visitor stands: accept (signed in with the invited address), sign in with it, or
// sign out of another account first. Its form posts to the page's own POST (src/pages/routes.ts), which accepts as
// POST /api/invites/{token}/accept does (src/members/accept-invite.ts) and goes on to the workspace's dashboard.
import type { User } from "../db/tables.ts";
import { wrongAddress } from "../members/accept-invite.ts";

export type InvitePageProps = {
  token: string;
  /** null: not valid (used, revoked or expired). */
  invite: { email: string; role: string; workspaceName: string; inviter: string | null } | null;
  viewer: User | null;
  /** How one signs in here: sign-in links by e-mail (SMTP_URL), Google (GOOGLE_CLIENT_ID). */
  byMail: boolean;
  byGoogle: boolean;
};

const button = "inline-block rounded-md bg-indigo-600 px-5 py-2 font-semibold text-white hover:bg-indigo-500";

export function InvitePage({ token, invite, viewer, byMail, byGoogle }: InvitePageProps) {
  if (!invite)
    return (
      <section className="mx-auto max-w-xl space-y-4 py-16 text-center">
        <h1 className="text-3xl font-bold">Invite not valid</h1>
        <p>This invite was used, revoked or has expired. Ask whoever invited you for a new one.</p>
      </section>
    );
  const signedInAsInvited = viewer !== null && viewer.email.toLowerCase() === invite.email;
  return (
    <section className="mx-auto max-w-xl space-y-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{`Join ${invite.workspaceName}`}</h1>
      <p>
        {invite.inviter ?? "A member"} invited <strong>{invite.email}</strong> to the workspace{" "}
        <strong>{invite.workspaceName}</strong> as {invite.role}.
      </p>
      {signedInAsInvited ? (
        <form method="post" action={`/invites/${encodeURIComponent(token)}`}>
          <button className={button} type="submit">
            Accept and join
          </button>
        </form>
      ) : viewer ? (
        <>
          <p role="alert">{wrongAddress(invite.email, viewer.email)}</p>
          <form method="post" action="/api/auth/logout">
            <button className={button} type="submit">
              Sign out
            </button>
          </form>
        </>
      ) : (
        <>
          <p>{`Sign in with ${invite.email} to accept, then open this invite again.`}</p>
          {byMail && (
            <form method="post" action="/api/auth/login-link/email">
              <input type="hidden" name="email" value={invite.email} />
              <button className={button} type="submit">
                E-mail me a sign-in link
              </button>
            </form>
          )}
          {byGoogle && (
            <p>
              <a className={button} href="/api/auth/google">
                Sign in with Google
              </a>
            </p>
          )}
          {!byMail && !byGoogle && (
            <p>{`Ask the person who runs this instance for a sign-in link for ${invite.email}.`}</p>
          )}
        </>
      )}
    </section>
  );
}
