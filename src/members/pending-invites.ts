// GET and DELETE /api/workspaces/{id}/invites…: the invites not yet accepted nor expired (never their URL: only its
// hash is kept), and revoking one.
import { and, asc, eq, gt, isNull } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Tables } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";

/** An invite that still works at `now`: not yet accepted, not expired (the list, the seats, the accept page). */
export const stillPending = (invites: Tables["workspaceInvites"], now: number) =>
  and(isNull(invites.acceptedAt), gt(invites.expiresAt, new Date(now)));

export async function pendingInvites(db: Db, workspaceId: number, now: number) {
  const { workspaceInvites } = tablesOf(db);
  const rows = await db
    .select({
      id: workspaceInvites.id,
      email: workspaceInvites.email,
      role: workspaceInvites.role,
      expiresAt: workspaceInvites.expiresAt,
    })
    .from(workspaceInvites)
    .where(and(eq(workspaceInvites.workspaceId, workspaceId), stillPending(workspaceInvites, now)))
    .orderBy(asc(workspaceInvites.id));
  return rows.map((row) => ({ ...row, url: null }));
}

/** Its URL stops working at once. An accepted invite is history, not something to revoke: 404 as for none. */
export async function revokeInvite(db: Db, workspaceId: number, inviteId: number): Promise<void> {
  const { workspaceInvites } = tablesOf(db);
  const removed = await db
    .delete(workspaceInvites)
    .where(
      and(
        eq(workspaceInvites.id, inviteId),
        eq(workspaceInvites.workspaceId, workspaceId),
        isNull(workspaceInvites.acceptedAt),
      ),
    )
    .returning({ id: workspaceInvites.id });
  if (removed.length === 0) throw notFound("Invite not found");
}

/** Whether some workspace awaits this address (sign-in by e-mail then makes its account: auth/login-mail-routes.ts). */
export async function isInvited(db: Db, email: string, now: number): Promise<boolean> {
  const { workspaceInvites } = tablesOf(db);
  const rows = await db
    .select({ id: workspaceInvites.id })
    .from(workspaceInvites)
    .where(and(eq(workspaceInvites.email, email.toLowerCase()), stillPending(workspaceInvites, now)))
    .limit(1);
  return rows.length > 0;
}
