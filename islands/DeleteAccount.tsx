// Deleting the account (account settings, src/pages/account-settings.tsx), after typing its e-mail.
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { buttonClass, Dialog } from "../src/client/ui/Dialog.tsx";

export default function DeleteAccount({ email }: { email: string }) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirmed = typed.trim().toLowerCase() === email.toLowerCase();

  const close = () => {
    if (busy) return;
    setOpen(false);
    setTyped("");
    setProblem(null);
  };
  const remove = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    try {
      await api("/api/account", { method: "DELETE", json: { confirmEmail: typed.trim() } });
      window.location.assign("/account-deleted");
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="delete-account-title">
      <div className="rounded-md border border-red-200 bg-red-50 p-4">
        <h2 id="delete-account-title" className="font-semibold text-red-800">
          Delete account
        </h2>
        <p className="mt-1 text-sm text-red-800">
          Deleting your account cancels your subscription at once and removes your links, views and images. It cannot be
          undone.
        </p>
        <button type="button" className={`${buttonClass.danger} mt-3`} onClick={() => setOpen(true)}>
          Delete account
        </button>
      </div>
      <Dialog
        open={open}
        title="Delete your account?"
        description="Every short URL stops working. Payment records stay, without your name or e-mail, for the invoices."
        onDismiss={close}
      >
        <form onSubmit={remove}>
          <label htmlFor="confirm-email" className="block text-sm font-medium">{`Type ${email} to confirm`}</label>
          <input
            id="confirm-email"
            type="email"
            autoComplete="off"
            value={typed}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
            className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
          />
          {problem && (
            <p role="alert" className="mt-2 text-sm text-red-700">
              {problem}
            </p>
          )}
          <div className="mt-4 flex justify-end gap-2">
            <button type="button" className={buttonClass.secondary} onClick={close} disabled={busy}>
              Cancel
            </button>
            <button type="submit" className={buttonClass.danger} disabled={!confirmed || busy}>
              {busy ? "Deleting…" : "Delete my account"}
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}
