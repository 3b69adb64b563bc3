// DELETE /api/workspaces/{id}: a team workspace and everything it owns go (its rows cascade); its slug is retired
// like a deleted account's, so /go answers 410 there and nobody gets it again. A personal workspace goes only with
// its account (DELETE /api/account).
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { conflict } from "../http/errors.ts";
import type { Workspace } from "./acting.ts";
import type { WorkspaceDeps } from "./deps.ts";

export const PERSONAL_STAYS = "Your personal workspace goes only with your account: delete the account instead";

export async function deleteWorkspace(deps: WorkspaceDeps, workspace: Workspace): Promise<void> {
  if (workspace.personalUserId !== null) throw conflict(PERSONAL_STAYS);
  const { retiredUserSlugs, workspaces } = tablesOf(deps.database.db);
  await deps.database.transaction(async (tx) => {
    await tx.insert(retiredUserSlugs).values({ userSlug: workspace.slug }).onConflictDoNothing();
    await tx.delete(workspaces).where(eq(workspaces.id, workspace.id));
  });
  // Every cache forgets the addresses under the slug (and learns it is retired).
  await deps.changes.announceChange({ kind: "user", userSlug: workspace.slug });
}
