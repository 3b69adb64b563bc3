// Workspace settings → General: a new name for the workspace (PATCH /api/workspaces/{id}); the slug never changes.
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { toastAfterNavigation } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";

export type RenameWorkspaceProps = { workspaceId: number; name: string };

export default function RenameWorkspace({ workspaceId, name }: RenameWorkspaceProps) {
  const [typed, setTyped] = useState(name);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const rename = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem(null);
    try {
      await api(`/api/workspaces/${workspaceId}`, { method: "PATCH", json: { name: typed.trim() } });
      toastAfterNavigation({ title: "Workspace renamed" });
      // Reloaded, so the top bar's switcher shows the new name too.
      window.location.reload();
    } catch (error) {
      setProblem(errorMessage(error));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={rename} className="mt-6" aria-labelledby="rename-title">
      <h3 id="rename-title" className="font-semibold">
        Rename
      </h3>
      <label htmlFor="workspace-name" className="mt-2 block text-sm font-medium">
        Name
      </label>
      <div className="mt-1 flex flex-wrap gap-2">
        <input
          id="workspace-name"
          required
          value={typed}
          onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
          className="w-64 max-w-full rounded-md border border-gray-300 px-3 py-2 text-sm"
        />
        <button type="submit" className={buttonClass.primary} disabled={busy || typed.trim() === ""}>
          {busy ? "Saving…" : "Save name"}
        </button>
      </div>
      {problem && (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {problem}
        </p>
      )}
    </form>
  );
}
