// /api/workspaces/{id}/invites and …/members, and POST /api/invites/{token}/accept (docs/decisions/0065), for the web
// app (cookie) and the CLI (token). The guard acts in the workspace the path names (src/workspaces/acting-workspace.ts):
// a non-member hears 404, and the permission is the caller's role there. The accept page is src/pages/invite.tsx.
import { Elysia } from "elysia";
import { z } from "zod";
import { asJson } from "../api-docs/json.ts";
import { routeGuards, requireScope } from "../auth/guards.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import { emailAddress, INT32_ID_MAX, pathId } from "../http/validate.ts";
import { WorkspaceIdParams } from "../workspaces/id-params.ts";
import { presentWorkspace } from "../workspaces/list.ts";
import { acceptInvite } from "./accept-invite.ts";
import { changeRole, MEMBER_NOT_FOUND } from "./change-role.ts";
import { createInvite } from "./create-invite.ts";
import type { MemberDeps } from "./deps.ts";
import { listMembers } from "./members.ts";
import { pendingInvites, revokeInvite } from "./pending-invites.ts";
import { removeMember } from "./remove-member.ts";
import { AcceptedInviteSchema, InviteSchema, MemberSchema, RoleSchema } from "./wire.ts";

const InviteParams = WorkspaceIdParams.extend({
  inviteId: pathId("Invite not found", INT32_ID_MAX).describe("The invite's id"),
});
const MemberParams = WorkspaceIdParams.extend({
  userId: pathId(MEMBER_NOT_FOUND, INT32_ID_MAX).describe("The member's user id"),
});
const TokenParams = z.object({ token: z.string().min(1).max(200).describe("The token in the invite's URL") });

const InviteInput = z.object({ email: emailAddress, role: RoleSchema });
const RoleInput = z.object({ role: RoleSchema });

export type MemberRouteDeps = { members: MemberDeps; session: SessionDeps };

export function memberRoutes({ members: deps, session }: MemberRouteDeps) {
  const db = deps.database.db;
  return new Elysia()
    .use(routeGuards(session))
    .get(
      "/api/workspaces/:id/invites",
      async ({ workspace }) => asJson(await pendingInvites(db, workspace.id, deps.clock.now())),
      {
        permission: "members.write",
        params: WorkspaceIdParams,
        response: { 200: z.array(InviteSchema) },
        doc: {
          id: "listInvites",
          tag: "Workspaces",
          summary: "The workspace's pending invites (url is null: only its hash is kept)",
          description: "Owners and admins.",
          errors: [403, 404],
          answers: { 200: "Invites not yet accepted nor expired, oldest first" },
        },
      },
    )
    .post(
      "/api/workspaces/:id/invites",
      async ({ acting, body, set }) => {
        set.status = 201;
        return asJson(await createInvite(deps, acting, body));
      },
      {
        permission: "members.write",
        params: WorkspaceIdParams,
        body: InviteInput,
        response: { 201: InviteSchema },
        doc: {
          id: "createInvite",
          tag: "Workspaces",
          summary: "Invite someone by e-mail",
          description:
            "Owners and admins (an admin invites members, viewers and billing members; only an owner invites admins and owners). The URL works once, for the account with that e-mail, for 14 days; with SMTP_URL it is also e-mailed. Inviting an address again replaces its pending invite. Refused (403) when the plan's seats (basic 1, pro 5, enterprise unlimited) are filled by members and pending invites.",
          body: { example: { email: "ana@example.com", role: "member" } },
          errors: [400, 403, 404, 409],
          answers: { 201: "The invite, with its URL shown this once" },
        },
      },
    )
    .delete(
      "/api/workspaces/:id/invites/:inviteId",
      async ({ workspace, params, set }) => {
        await revokeInvite(db, workspace.id, params.inviteId);
        set.status = 204;
        return null;
      },
      {
        permission: "members.write",
        params: InviteParams,
        doc: {
          id: "revokeInvite",
          tag: "Workspaces",
          summary: "Revoke a pending invite (its URL stops working)",
          errors: [403, 404],
          answers: { 204: "Done; no body" },
        },
      },
    )
    .get("/api/workspaces/:id/members", async ({ workspace }) => asJson(await listMembers(db, workspace.id)), {
      user: true,
      params: WorkspaceIdParams,
      response: { 200: z.array(MemberSchema) },
      doc: {
        id: "listMembers",
        tag: "Workspaces",
        summary: "The workspace's members and their roles",
        errors: [404],
        answers: { 200: "Every member, oldest first" },
      },
    })
    .patch(
      "/api/workspaces/:id/members/:userId",
      async ({ acting, params, body }) => asJson(await changeRole(deps, acting, params.userId, body.role)),
      {
        permission: "members.write",
        params: MemberParams,
        body: RoleInput,
        response: { 200: MemberSchema },
        doc: {
          id: "changeMemberRole",
          tag: "Workspaces",
          summary: "Change a member's role",
          description:
            "An admin changes members, viewers and billing members among those roles; an owner changes any role, and makes another member owner to transfer ownership. The last owner cannot be demoted (409).",
          body: { example: { role: "admin" } },
          errors: [400, 403, 404, 409],
          answers: { 200: "The member with their new role" },
        },
      },
    )
    .delete(
      "/api/workspaces/:id/members/:userId",
      async ({ acting, viewer, params, set }) => {
        // Leaving needs no permission; removing someone else is members.write, checked by removeMember, and a
        // token's scopes must allow it too (the guard checks scopes for the permission it is given).
        if (params.userId !== acting.user.id) requireScope(viewer, "members.write");
        await removeMember(deps, acting, params.userId);
        set.status = 204;
        return null;
      },
      {
        user: true,
        params: MemberParams,
        doc: {
          id: "removeMember",
          tag: "Workspaces",
          summary: "Remove a member, or leave (your own user id)",
          description:
            "Owners and admins remove members below them (only an owner removes an admin or an owner); anyone may leave. The removed member loses access at their next request, and the API tokens they made for this workspace are revoked. The last owner cannot leave (409).",
          errors: [403, 404, 409],
          answers: { 204: "Done; no body" },
        },
      },
    )
    .post(
      "/api/invites/:token/accept",
      async ({ params, user }) => {
        return asJson({ workspace: presentWorkspace(await acceptInvite(deps, user, params.token)) });
      },
      {
        user: true,
        params: TokenParams,
        response: { 200: AcceptedInviteSchema },
        doc: {
          id: "acceptInvite",
          tag: "Workspaces",
          summary: "Accept an invite",
          description:
            "Signed in with the invited e-mail address (else 403 naming it). Someone already a member keeps their role. Refused (403) when the plan's seats are all taken. (The accept page, /invites/{token}, posts its form to itself.)",
          errors: [403, 404],
          answers: { 200: "The workspace joined, and your role there" },
        },
      },
    );
}
