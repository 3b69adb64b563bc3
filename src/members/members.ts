// GET /api/workspaces/{id}/members: who belongs to the workspace, with their role, oldest first.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export async function listMembers(db: Db, workspaceId: number) {
  const { users, workspaceMembers } = tablesOf(db);
  return db
    .select({ userId: users.id, email: users.email, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(eq(workspaceMembers.workspaceId, workspaceId))
    .orderBy(asc(workspaceMembers.createdAt), asc(users.id));
}
