// The audit log (docs/decisions/0068): the twin of ../../sqlite/schema/audit.ts, which says why. Re-exported by
// ../schema.ts.
import { index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { users, workspaces } from "./accounts.ts";
import { createdAt } from "./columns.ts";

export const auditEvents = pgTable(
  "audit_events",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
