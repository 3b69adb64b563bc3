// POST /api/workspaces: a team workspace, its creator its owner. Its slug joins the one namespace of short URLs
// (slugs.ts): taken by a user, another workspace or a retired address, it is a 409.
import type { User } from "../db/tables.ts";
import { tablesOf } from "../db/tables.ts";
import { conflict } from "../http/errors.ts";
import type { WorkspaceDeps } from "./deps.ts";
import { slugTaken } from "./slugs.ts";
import type { CreateWorkspaceRequest, WorkspaceJson } from "./wire.ts";

const WORKSPACE_SLUG_TAKEN = "This workspace address is already taken";

export async function createWorkspace(
  deps: WorkspaceDeps,
  user: User,
  input: CreateWorkspaceRequest,
): Promise<WorkspaceJson> {
  const { workspaceMembers, workspaces } = tablesOf(deps.database.db);
  try {
    return await deps.database.transaction(async (tx) => {
      if (await slugTaken(tx, input.slug)) throw conflict(WORKSPACE_SLUG_TAKEN);
      const [workspace] = await tx
        .insert(workspaces)
        .values({ slug: input.slug, name: input.name })
        .returning({ id: workspaces.id });
      await tx.insert(workspaceMembers).values({ workspaceId: workspace!.id, userId: user.id, role: "owner" });
      return { id: workspace!.id, slug: input.slug, name: input.name, role: "owner" as const };
    });
  } catch (error) {
    // Two creates of one slug at once: the unique index settles it.
    if (deps.database.isUniqueViolation(error)) throw conflict(WORKSPACE_SLUG_TAKEN);
    throw error;
  }
}
