// GET /api/workspaces: the workspaces the caller belongs to, with their role in each (personal first), so that a
// client (the CLI's `workspaces members|invite`) can name one by its slug.
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export async function myWorkspaces(db: Db, userId: number) {
  const { workspaceMembers, workspaces } = tablesOf(db);
  return db
    .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name, role: workspaceMembers.role })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(eq(workspaceMembers.userId, userId))
    .orderBy(sql`${workspaces.personalUserId} is null`, asc(workspaces.id));
}
