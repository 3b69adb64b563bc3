// GET /api/workspaces and /api/workspaces/{id}: the caller's workspaces, each with their role there.
import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { type Membership, notMarkedForRemoval } from "./membership.ts";
import type { WorkspaceJson } from "./wire.ts";

export const presentWorkspace = ({ workspace, role }: Membership): WorkspaceJson => ({
  id: workspace.id,
  slug: workspace.slug,
  name: workspace.name,
  role,
});

/** The personal workspace first, then the others in the order they were joined. */
export async function listWorkspaces(db: Db, userId: number): Promise<WorkspaceJson[]> {
  const { workspaceMembers, workspaces } = tablesOf(db);
  const rows = await db
    .select({ workspace: workspaces, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.userId, userId), notMarkedForRemoval(db)))
    .orderBy(asc(workspaceMembers.createdAt), asc(workspaces.id));
  const personal = (row: Membership) => row.workspace.personalUserId === userId;
  return [...rows.filter(personal), ...rows.filter((row) => !personal(row))].map(presentWorkspace);
}
