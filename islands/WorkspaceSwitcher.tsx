// The top bar's workspace switcher (docs/workspaces.md): the current workspace, the others to switch to, and a form
// to create one. The choice is remembered in the `workspace` cookie (src/auth/plugin.ts reads it), so each request
// of this browser acts there until another is chosen; a URL's ?workspace= still wins for that request.
import { useState } from "react";
import { api } from "../src/client/api.ts";

export type WorkspaceSwitcherProps = {
  current: { slug: string; name: string };
  workspaces: Array<{ slug: string; name: string; role: string }>;
};

/** Acts in `slug` from now on, starting from its dashboard. */
function switchTo(slug: string) {
  document.cookie = `workspace=${encodeURIComponent(slug)}; path=/; samesite=lax; max-age=31536000`;
  window.location.assign("/admin");
}

export default function WorkspaceSwitcher({ current, workspaces }: WorkspaceSwitcherProps) {
  const [open, setOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setError(null);
    try {
      const created = await api<{ slug: string }>("/api/workspaces", {
        method: "POST",
        json: { name: form.get("name"), slug: form.get("slug") },
      });
      switchTo(created.slug);
    } catch (failure) {
      // The server's message, without the status the client's api() puts first.
      const text = failure instanceof Error ? failure.message.replace(/^\d+: /, "") : String(failure);
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {}
      setError(message);
    }
  };

  return (
    <div className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-controls="workspace-menu"
        onClick={() => setOpen(!open)}
        className="flex max-w-[12rem] items-center gap-1 rounded-md border border-gray-200 px-2 py-1 text-sm text-gray-800 hover:bg-gray-50"
      >
        <span className="sr-only">Workspace:</span>
        <span className="truncate">{current.name}</span>
        <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <div
          id="workspace-menu"
          className="absolute right-0 z-40 mt-2 w-64 rounded-md border border-gray-200 bg-white p-2 shadow-lg"
        >
          <ul aria-label="Workspaces" className="flex flex-col">
            {workspaces.map((workspace) => (
              <li key={workspace.slug}>
                <button
                  type="button"
                  aria-current={workspace.slug === current.slug ? "true" : undefined}
                  onClick={() => switchTo(workspace.slug)}
                  className="flex w-full items-center justify-between rounded px-2 py-1.5 text-left text-sm text-gray-700 hover:bg-gray-100"
                >
                  <span className="truncate">{workspace.name}</span>
                  <span className="text-xs text-gray-500">
                    {workspace.slug === current.slug ? "current" : workspace.role}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {creating ? (
            <form onSubmit={create} className="mt-2 flex flex-col gap-2 border-t border-gray-200 pt-2">
              <label className="flex flex-col text-xs text-gray-700">
                Workspace name
                <input
                  name="name"
                  required
                  maxLength={100}
                  className="rounded border border-gray-300 px-2 py-1 text-sm"
                />
              </label>
              <label className="flex flex-col text-xs text-gray-700">
                Address (/go/address/…)
                <input
                  name="slug"
                  required
                  maxLength={20}
                  pattern="[A-Za-z0-9_\-]+"
                  className="rounded border border-gray-300 px-2 py-1 text-sm"
                />
              </label>
              {error && (
                <p role="alert" className="text-xs text-red-700">
                  {error}
                </p>
              )}
              <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-semibold text-white">
                Create workspace
              </button>
            </form>
          ) : (
            <button
              type="button"
              onClick={() => setCreating(true)}
              className="mt-2 w-full rounded border-t border-gray-200 px-2 py-1.5 text-left text-sm text-indigo-700 hover:bg-gray-100"
            >
              New workspace…
            </button>
          )}
        </div>
      )}
    </div>
  );
}
