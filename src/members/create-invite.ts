// POST /api/workspaces/{id}/invites: an invite for one address and role, its accept URL handed to the inviter and,
// with SMTP_URL, e-mailed. Inviting an address again replaces its pending invite (the older URL stops working).
import { and, eq, isNull } from "drizzle-orm";
import { generateSecret, hashSecret } from "../auth/tokens.ts";
import { tablesOf } from "../db/tables.ts";
import { conflict, forbidden } from "../http/errors.ts";
import { sendInBackground } from "../mail/mailer.ts";
import type { Acting } from "../workspaces/acting.ts";
import type { Role } from "../workspaces/model.ts";
import type { MemberDeps } from "./deps.ts";
import { inviteMail } from "./invite-mail.ts";
import { INVITE_MS, mayHandle, ONLY_OWNERS } from "./model.ts";
import { ensureSeatFree } from "./seats.ts";

const inviteUrl = (publicUrl: string, token: string) => `${publicUrl}/invites/${token}`;

export async function createInvite(deps: MemberDeps, acting: Acting, input: { email: string; role: Role }) {
  if (!mayHandle(acting.role, input.role)) throw forbidden(ONLY_OWNERS);
  const email = input.email.toLowerCase();
  const workspaceId = acting.workspace.id;
  const token = generateSecret();
  const expiresAt = new Date(deps.clock.now() + INVITE_MS);
  const invite = await deps.database.transaction(async (tx) => {
    const { users, workspaceInvites, workspaceMembers } = tablesOf(tx);
    const [member] = await tx
      .select({ id: users.id })
      .from(workspaceMembers)
      .innerJoin(users, eq(users.id, workspaceMembers.userId))
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(users.email, email)))
      .limit(1);
    if (member) throw conflict(`${email} is already a member of this workspace.`);
    await tx
      .delete(workspaceInvites)
      .where(
        and(
          eq(workspaceInvites.workspaceId, workspaceId),
          eq(workspaceInvites.email, email),
          isNull(workspaceInvites.acceptedAt),
        ),
      );
    await ensureSeatFree(deps, tx, workspaceId, false);
    const [row] = await tx
      .insert(workspaceInvites)
      .values({
        workspaceId,
        email,
        role: input.role,
        tokenHash: hashSecret(token),
        invitedByUserId: acting.user.id,
        expiresAt,
      })
      .returning({ id: workspaceInvites.id });
    return row!;
  });
  const url = inviteUrl(deps.publicUrl, token);
  if (deps.mailer) {
    const inviter = [acting.user.firstName, acting.user.lastName].filter(Boolean).join(" ") || acting.user.email;
    const message = inviteMail({ to: email, url, workspaceName: acting.workspace.name, role: input.role, inviter });
    sendInBackground(deps.mailer, message, deps.log, "an invite");
  }
  return { id: invite.id, email, role: input.role, url, expiresAt };
}
