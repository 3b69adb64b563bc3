// Deletes a link after the 'Delete Link?' confirmation; the page then reloads with the link under 'Deleted links'.
import { useState } from "react";
import { api } from "../api.ts";
import { toast, toastAfterNavigation } from "../toast.ts";
import { buttonClass, Dialog } from "./Dialog.tsx";

export function DeleteLinkButton({ id, title }: { id: number; title: string }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      await api(`/api/links/${id}`, { method: "DELETE" });
      toastAfterNavigation({ title: "Success!", description: "Link deleted successfully" });
      window.location.reload();
    } catch {
      toast({ title: "Error", description: "Failed to delete link. Please try again.", variant: "destructive" });
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <>
      <button
        type="button"
        className={buttonClass.secondary}
        onClick={() => setOpen(true)}
        aria-label={`Delete ${title}`}
      >
        Delete
      </button>
      <Dialog
        open={open}
        title="Delete Link?"
        description={`“${title}” will stop functioning and will no longer be accessible. This cannot be undone.`}
        onDismiss={() => !busy && setOpen(false)}
      >
        <div className="flex justify-end gap-2">
          <button type="button" className={buttonClass.secondary} onClick={() => setOpen(false)} disabled={busy}>
            Cancel
          </button>
          <button type="button" className={buttonClass.danger} onClick={remove} disabled={busy}>
            {busy ? "Deleting…" : "Delete"}
          </button>
        </div>
      </Dialog>
    </>
  );
}
