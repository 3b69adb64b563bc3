// Deleting the account (account settings, src/pages/account-settings.tsx), after typing its e-mail.
import { api } from "../src/client/api.ts";
import { TypeToConfirm } from "../src/client/ui/TypeToConfirm.tsx";

export default function DeleteAccount({ email }: { email: string }) {
  return (
    <section aria-labelledby="delete-account-title">
      <TypeToConfirm
        heading={
          <h2 id="delete-account-title" className="font-semibold text-red-800">
            Delete account
          </h2>
        }
        word={email}
        matches={(typed) => typed.toLowerCase() === email.toLowerCase()}
        inputId="confirm-email"
        inputType="email"
        openLabel="Delete account"
        title="Delete your account?"
        description="Every short URL stops working. Payment records stay, without your name or e-mail, for the invoices."
        submitLabel="Delete my account"
        onConfirm={async (typed) => {
          await api("/api/account", { method: "DELETE", json: { confirmEmail: typed } });
          window.location.assign("/account-deleted");
        }}
      >
        <p className="mt-1 text-sm text-red-800">
          Deleting your account cancels your subscription at once and removes your links, views and images. It cannot be
          undone.
        </p>
      </TypeToConfirm>
    </section>
  );
}
