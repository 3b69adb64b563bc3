// Workspace settings → General: an owner deletes a team workspace after typing its slug
// (DELETE /api/workspaces/{id} with confirmSlug), then lands on their personal workspace's dashboard.
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { toastAfterNavigation } from "../src/client/toast.ts";
import { buttonClass, Dialog } from "../src/client/ui/Dialog.tsx";

export type DeleteWorkspaceProps = { workspaceId: number; slug: string; personalSlug: string };

export default function DeleteWorkspace({ workspaceId, slug, personalSlug }: DeleteWorkspaceProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirmed = typed.trim() === slug;

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
      await api(`/api/workspaces/${workspaceId}`, { method: "DELETE", json: { confirmSlug: typed.trim() } });
      document.cookie = `workspace=${encodeURIComponent(personalSlug)}; path=/; samesite=lax; max-age=31536000`;
      toastAfterNavigation({ title: `Workspace ${slug} deleted` });
      window.location.assign(`/admin?workspace=${encodeURIComponent(personalSlug)}`);
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="delete-workspace-title" className="mt-8">
      <div className="rounded-md border border-red-200 bg-red-50 p-4">
        <h3 id="delete-workspace-title" className="font-semibold text-red-800">
          Delete workspace
        </h3>
        <p className="mt-1 text-sm text-red-800">
          Deleting the workspace cancels its subscription, releases its domains, revokes its tokens, removes its
          webhooks and links, and retires its slug for good. It cannot be undone.
        </p>
        <button type="button" className={`${buttonClass.danger} mt-3`} onClick={() => setOpen(true)}>
          Delete workspace
        </button>
      </div>
      <Dialog
        open={open}
        title={`Delete the workspace ${slug}?`}
        description="Every short URL of this workspace stops working."
        onDismiss={close}
      >
        <form onSubmit={remove}>
          <label htmlFor="confirm-slug" className="block text-sm font-medium">{`Type ${slug} to confirm`}</label>
          <input
            id="confirm-slug"
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
              {busy ? "Deleting…" : "Delete this workspace"}
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}
