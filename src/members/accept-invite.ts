// An invite read by its token (the accept page) and accepted (POST /api/invites/{token}/accept): by a signed-in
// account whose e-mail is the invited one, once, before it expires, while a seat is free.
import { and, eq, isNull } from "drizzle-orm";
import { hashSecret } from "../auth/tokens.ts";
import type { Db } from "../db/ports.ts";
import { tablesOf, type User } from "../db/tables.ts";
import { forbidden, notFound } from "../http/errors.ts";
import type { Membership } from "../workspaces/membership.ts";
import type { MemberDeps } from "./deps.ts";
import { stillPending } from "./pending-invites.ts";
import { ensureSeatFree } from "./seats.ts";

const INVITE_NOT_FOUND = "This invite is not valid: it was used, revoked or has expired. Ask for a new one.";

/** A pending invite and what the accept page names: the workspace and who invited; undefined when not valid. */
export async function openInvite(db: Db, token: string, now: number) {
  const { users, workspaceInvites, workspaces } = tablesOf(db);
  const [found] = await db
    .select({ invite: workspaceInvites, workspace: workspaces, inviterEmail: users.email })
    .from(workspaceInvites)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvites.workspaceId))
    .leftJoin(users, eq(users.id, workspaceInvites.invitedByUserId))
    .where(and(eq(workspaceInvites.tokenHash, hashSecret(token)), stillPending(workspaceInvites, now)))
    .limit(1);
  return found;
}

export const wrongAddress = (invited: string, signedInAs: string) =>
  `This invite is for ${invited}, and you are signed in as ${signedInAs}. Sign out, then sign in with ${invited} to accept it.`;

/** Accepts for `user`; someone already a member keeps their role (the invite is used up all the same). */
export async function acceptInvite(deps: MemberDeps, user: User, token: string): Promise<Membership> {
  return deps.database.transaction(async (tx) => {
    const { workspaceInvites, workspaceMembers } = tablesOf(tx);
    const now = deps.clock.now();
    const found = await openInvite(tx, token, now);
    if (!found) throw notFound(INVITE_NOT_FOUND);
    const { invite, workspace } = found;
    if (invite.email !== user.email.toLowerCase()) throw forbidden(wrongAddress(invite.email, user.email));
    // Marked first, and only while still unused: of two accepts at once only one goes on.
    const used = await tx
      .update(workspaceInvites)
      .set({ acceptedAt: new Date(now) })
      .where(and(eq(workspaceInvites.id, invite.id), isNull(workspaceInvites.acceptedAt)))
      .returning({ id: workspaceInvites.id });
    if (used.length === 0) throw notFound(INVITE_NOT_FOUND);
    const [already] = await tx
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.userId, user.id)));
    if (already) return { workspace, role: already.role };
    await ensureSeatFree(deps, tx, workspace.id, true);
    await tx.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: user.id, role: invite.role });
    return { workspace, role: invite.role };
  });
}
