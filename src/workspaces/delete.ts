// DELETE /api/workspaces/{id}: an owner types the slug to confirm; the removal (src/account/workspace-removal.ts,
// given in deps) cancels its subscription, retires its slug (/go answers 410 there for good), releases its domains,
// revokes its tokens and removes its webhooks and links' data. A personal workspace goes only with its account.
import { badRequest, conflict } from "../http/errors.ts";
import type { Workspace } from "./acting.ts";
import type { WorkspaceDeps } from "./deps.ts";

const PERSONAL_STAYS = "Your personal workspace goes only with your account: delete the account instead";

export async function deleteWorkspace(deps: WorkspaceDeps, workspace: Workspace, confirmSlug: string): Promise<void> {
  if (workspace.personalUserId !== null) throw conflict(PERSONAL_STAYS);
  if (confirmSlug.trim().toLowerCase() !== workspace.slug) {
    throw badRequest(
      `confirmSlug: Type the workspace's slug, ${workspace.slug}, to confirm the deletion`,
      "confirmSlug",
    );
  }
  await deps.removeWorkspace(workspace);
}
