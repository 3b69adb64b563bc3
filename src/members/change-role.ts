// PATCH /api/workspaces/{id}/members/{userId}: a member's new role. Admins handle roles below admin; owners any,
// which is how ownership is transferred (make another member owner, then step down). The last owner stays owner.
import { and, count, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import type { Acting } from "../workspaces/acting.ts";
import type { Role } from "../workspaces/model.ts";
import type { MemberDeps } from "./deps.ts";
import { lastOwnerRefusal, mayHandle, ONLY_OWNERS } from "./model.ts";

export const MEMBER_NOT_FOUND = "Member not found";

/** The member's role, or a 404 when they are not one. */
export async function roleOf(db: Db, workspaceId: number, userId: number): Promise<Role> {
  const { workspaceMembers } = tablesOf(db);
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
  if (!row) throw notFound(MEMBER_NOT_FOUND);
  return row.role;
}

export async function ownerCount(db: Db, workspaceId: number): Promise<number> {
  const { workspaceMembers } = tablesOf(db);
  const [row] = await db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, "owner")));
  return row?.n ?? 0;
}

export async function changeRole(deps: MemberDeps, acting: Acting, userId: number, role: Role) {
  const workspaceId = acting.workspace.id;
  return deps.database.transaction(async (tx) => {
    const current = await roleOf(tx, workspaceId, userId);
    if (!mayHandle(acting.role, current) || !mayHandle(acting.role, role)) throw forbidden(ONLY_OWNERS);
    const refusal = lastOwnerRefusal(current, role, await ownerCount(tx, workspaceId));
    if (refusal) throw conflict(refusal);
    const { users, workspaceMembers } = tablesOf(tx);
    await tx
      .update(workspaceMembers)
      .set({ role })
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    return { userId, email: user!.email, role };
  });
}
