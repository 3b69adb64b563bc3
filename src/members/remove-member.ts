// DELETE /api/workspaces/{id}/members/{userId}: removing a member, or leaving (one's own user id). The removed member
// loses access at their next request (every request reads its membership: src/auth/plugin.ts), and the API tokens
// they made for this workspace are revoked with it. The last owner can neither leave nor be removed.
import { and, eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { conflict, forbidden } from "../http/errors.ts";
import type { Acting } from "../workspaces/acting.ts";
import { may } from "../workspaces/permissions.ts";
import type { MemberDeps } from "./deps.ts";
import { ownerCount, roleOf } from "./change-role.ts";
import { lastOwnerRefusal, mayHandle, ONLY_OWNERS } from "./model.ts";

export async function removeMember(deps: MemberDeps, acting: Acting, userId: number): Promise<void> {
  const workspaceId = acting.workspace.id;
  await deps.database.transaction(async (tx) => {
    const current = await roleOf(tx, workspaceId, userId);
    const leaving = userId === acting.user.id;
    if (!leaving && !may(acting.role, "members.write")) throw forbidden("You may not do this here.");
    if (!leaving && !mayHandle(acting.role, current)) throw forbidden(ONLY_OWNERS);
    const refusal = lastOwnerRefusal(current, null, await ownerCount(tx, workspaceId));
    if (refusal) throw conflict(refusal);
    const { apiTokens, workspaceMembers } = tablesOf(tx);
    await tx
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)));
    await tx.delete(apiTokens).where(and(eq(apiTokens.workspaceId, workspaceId), eq(apiTokens.userId, userId)));
  });
}
