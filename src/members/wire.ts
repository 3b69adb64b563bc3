// What the invite and member API answers (src/members/routes.ts), as zod schemas: the OpenAPI document and the CLI's
// types come from them. Pure zod.
import { z } from "zod";
import { ROLES } from "../workspaces/model.ts";

export const RoleSchema = z.enum(ROLES, `A role is one of ${ROLES.join(", ")}`).describe("A role in the workspace");

export const InviteSchema = z
  .object({
    id: z.number().int(),
    email: z.string().describe("The address the invite is bound to: only an account with it can accept"),
    role: RoleSchema,
    url: z
      .string()
      .nullable()
      .describe("Where the invitee accepts; given when the invite is made (and e-mailed with SMTP_URL), null in lists"),
    expiresAt: z.iso.datetime({ offset: true }).describe("ISO 8601: 14 days after it was made"),
  })
  .meta({ id: "Invite" });
export type InviteJson = z.infer<typeof InviteSchema>;

export const MemberSchema = z
  .object({ userId: z.number().int(), email: z.string(), role: RoleSchema })
  .meta({ id: "Member" });

export const AcceptedInviteSchema = z
  .object({
    workspace: z.object({ id: z.number().int(), slug: z.string(), name: z.string(), role: RoleSchema }),
  })
  .meta({ id: "AcceptedInvite" });
