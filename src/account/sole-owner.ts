// The team workspaces an account is the only owner of: deleting the account is refused while one of them has other
// members (they would be left without an owner), and takes the ones nobody else is in with it (deletion.ts).
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export type SoleOwned = { id: number; slug: string; name: string; otherMembers: number };

export async function soleOwnedWorkspaces(db: Db, userId: number): Promise<SoleOwned[]> {
  const { workspaceMembers, workspaces } = tablesOf(db);
  const owned = await db
    .select({ id: workspaces.id, slug: workspaces.slug, name: workspaces.name })
    .from(workspaces)
    .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
    .where(
      and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.role, "owner"), isNull(workspaces.personalUserId)),
    );
  const sole: SoleOwned[] = [];
  for (const workspace of owned) {
    const members = await db
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(eq(workspaceMembers.workspaceId, workspace.id));
    const owners = members.filter(({ role }) => role === "owner").length;
    if (owners === 1) sole.push({ ...workspace, otherMembers: members.length - 1 });
  }
  return sole;
}
