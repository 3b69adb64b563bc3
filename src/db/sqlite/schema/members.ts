// Workspace invites (src/members/, docs/decisions/0065). Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users, workspaces } from "./accounts.ts";
import { createdAt } from "./columns.ts";

/**
 * An invite to join a workspace with a role: bound to one e-mail address (stored lowercased), used once, until
 * `expires_at`. Only the token's hash is stored; the token itself is in the URL handed to the inviter.
 */
export const workspaceInvites = sqliteTable(
  "workspace_invites",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role", { enum: ["owner", "admin", "member", "viewer", "billing"] }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedByUserId: integer("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
    acceptedAt: integer("accepted_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("workspace_invites_email_len", sql`length(${t.email}) between 3 and 254`),
    check("workspace_invites_role", sql`${t.role} in ('owner', 'admin', 'member', 'viewer', 'billing')`),
    index("workspace_invites_workspace_idx").on(t.workspaceId),
    index("workspace_invites_email_idx").on(t.email),
  ],
);
