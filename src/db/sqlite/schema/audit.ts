// The audit log (docs/decisions/0068): one row per successful write in a workspace, recorded by the route guard
// (src/auth/guards.ts). Re-exported by ../schema.ts.
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users, workspaces } from "./accounts.ts";
import { createdAt } from "./columns.ts";

/**
 * Who (`user_id`, and `token_id` when an API token acted) did what (`action`, e.g. `link.update`) to what
 * (`target_kind` and `target_id`, an id or slug) in a workspace, and when. `fields`: the names of the fields a change
 * sent, comma-separated, never their values. No IP address, no body, no secret.
 */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    tokenId: integer("token_id"),
    action: text("action").notNull(),
    targetKind: text("target_kind").notNull(),
    targetId: text("target_id"),
    fields: text("fields"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_workspace_idx").on(t.workspaceId, t.id),
    index("audit_events_created_idx").on(t.createdAt),
  ],
);
