// /account, /account/data, /account/delete: the signed-in person's own settings, whatever workspace they act in.
import { buttonClass } from "../client/ui/Dialog.tsx";
import { DeleteAccount } from "./islands.ts";
import { AccountSettings } from "./settings-nav.tsx";

export type ProfileProps = { name: string; email: string; userSlug: string; publicUrl: string };

export function ProfilePage({ name, email, userSlug, publicUrl }: ProfileProps) {
  return (
    <AccountSettings section="profile">
      <h2 className="text-lg font-semibold">Profile</h2>
      <dl className="mt-2 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium text-gray-700">Name</dt>
        <dd>{name}</dd>
        <dt className="font-medium text-gray-700">E-mail</dt>
        <dd>{email}</dd>
        <dt className="font-medium text-gray-700">Your personal workspace's address</dt>
        <dd>
          <code>{`${publicUrl}/go/${userSlug}/…`}</code>
        </dd>
      </dl>
      <p className="mt-4 text-sm text-gray-600">Your name and picture come from your sign-in account.</p>
    </AccountSettings>
  );
}

export function YourDataPage() {
  return (
    <AccountSettings section="data">
      <h2 className="text-lg font-semibold">Your data</h2>
      <p className="mt-1 text-sm text-gray-600">
        A copy of everything we hold about you: profile, subscription, payments, links, daily counts and the raw views
        still kept.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <a href="/api/account/export" download className={buttonClass.secondary}>
          Download my data
        </a>
        <a href="/api/links/export.csv" download className={buttonClass.secondary}>
          Download links (CSV)
        </a>
      </div>
    </AccountSettings>
  );
}

export function DeleteAccountPage({ email }: { email: string }) {
  return (
    <AccountSettings section="delete">
      <DeleteAccount email={email} />
    </AccountSettings>
  );
}
