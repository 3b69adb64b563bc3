// Workspace invites: the twin of ../../sqlite/schema/members.ts. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { users, workspaces } from "./accounts.ts";
import { createdAt, ms } from "./columns.ts";

export const workspaceInvites = pgTable(
  "workspace_invites",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "admin", "member", "viewer", "billing"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedByUserId: integer("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: ms("expires_at").notNull(),
    acceptedAt: ms("accepted_at"),
    createdAt: createdAt(),
  },
  (t) => [
    check("workspace_invites_email_len", sql`length(${t.email}) between 3 and 254`),
    check("workspace_invites_role", sql`${t.role} in ('owner', 'admin', 'member', 'viewer', 'billing')`),
    index("workspace_invites_workspace_idx").on(t.workspaceId),
    index("workspace_invites_email_idx").on(t.email),
  ],
);
