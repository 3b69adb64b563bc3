// PATCH /api/workspaces/{id}: a new name. The slug never changes: it is in every published short URL.
import { eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import type { Acting } from "./acting.ts";
import type { WorkspaceDeps } from "./deps.ts";
import { presentWorkspace } from "./list.ts";
import type { WorkspaceJson } from "./wire.ts";

export async function renameWorkspace(
  deps: WorkspaceDeps,
  { workspace, role }: Acting,
  name: string,
): Promise<WorkspaceJson> {
  const { workspaces } = tablesOf(deps.database.db);
  await deps.database.db.update(workspaces).set({ name }).where(eq(workspaces.id, workspace.id));
  return presentWorkspace({ workspace: { ...workspace, name }, role });
}
