// Users' own short domains (src/domains/). Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { ms, createdAt, updatedAt } from "./columns.ts";
import { users, workspaces } from "./accounts.ts";

/** As in schema.ts: a user's own short domain. */
export const domains = pgTable(
  "domains",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    hostname: text("hostname").notNull(),
    status: text("status").notNull().default("pending"),
    verificationToken: text("verification_token").notNull(),
    lastCheckedAt: ms("last_checked_at"),
    failingSince: ms("failing_since"),
    reason: text("reason"),
    rootUrl: text("root_url"),
    notFoundUrl: text("not_found_url"),
    // Served byte-exact at /.well-known/ on the host (docs/decisions/0060), as written; at most 128 KB each.
    appleAppSiteAssociation: text("apple_app_site_association"),
    assetLinks: text("asset_links"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("domains_status", sql`${t.status} in ('pending', 'verified', 'failing', 'invalid')`),
    check("domains_hostname_len", sql`length(${t.hostname}) <= 253`),
    check("domains_root_url_len", sql`${t.rootUrl} is null or length(${t.rootUrl}) <= 2048`),
    check("domains_not_found_url_len", sql`${t.notFoundUrl} is null or length(${t.notFoundUrl}) <= 2048`),
    check(
      "domains_aasa_len",
      sql`${t.appleAppSiteAssociation} is null or octet_length(${t.appleAppSiteAssociation}) <= 131072`,
    ),
    check("domains_asset_links_len", sql`${t.assetLinks} is null or octet_length(${t.assetLinks}) <= 131072`),
    index("domains_user_idx").on(t.userId),
    index("domains_workspace_idx").on(t.workspaceId),
    uniqueIndex("domains_served_hostname_unique").on(t.hostname).where(sql`${t.status} in ('verified', 'failing')`),
    uniqueIndex("domains_workspace_hostname_unique").on(t.workspaceId, t.hostname),
    index("domains_checked_idx").on(t.lastCheckedAt),
  ],
);
/** What threat feeds and operators list, as in schema.ts. */

/** As in schema.ts: bumped by triggers, polled by every node's host map. */
export const hostMapVersion = pgTable("host_map_version", {
  id: integer("id").primaryKey().default(1),
  version: bigint("version", { mode: "number" }).notNull(),
});
