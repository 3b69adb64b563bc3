// Workspace settings → General: an owner deletes a team workspace after typing its slug
// (DELETE /api/workspaces/{id} with confirmSlug), then lands on their personal workspace's dashboard.
import { api } from "../src/client/api.ts";
import { toastAfterNavigation } from "../src/client/toast.ts";
import { TypeToConfirm } from "../src/client/ui/TypeToConfirm.tsx";

export type DeleteWorkspaceProps = { workspaceId: number; slug: string; personalSlug: string };

export default function DeleteWorkspace({ workspaceId, slug, personalSlug }: DeleteWorkspaceProps) {
  return (
    <section aria-labelledby="delete-workspace-title" className="mt-8">
      <TypeToConfirm
        heading={
          <h3 id="delete-workspace-title" className="font-semibold text-red-800">
            Delete workspace
          </h3>
        }
        word={slug}
        matches={(typed) => typed === slug}
        inputId="confirm-slug"
        openLabel="Delete workspace"
        title={`Delete the workspace ${slug}?`}
        description="Every short URL of this workspace stops working."
        submitLabel="Delete this workspace"
        onConfirm={async (typed) => {
          await api(`/api/workspaces/${workspaceId}`, { method: "DELETE", json: { confirmSlug: typed } });
          document.cookie = `workspace=${encodeURIComponent(personalSlug)}; path=/; samesite=lax; max-age=31536000`;
          toastAfterNavigation({ title: `Workspace ${slug} deleted` });
          window.location.assign(`/admin?workspace=${encodeURIComponent(personalSlug)}`);
        }}
      >
        <p className="mt-1 text-sm text-red-800">
          Deleting the workspace cancels its subscription, releases its domains, revokes its tokens, removes its
          webhooks and links, and retires its slug for good. It cannot be undone.
        </p>
      </TypeToConfirm>
    </section>
  );
}
