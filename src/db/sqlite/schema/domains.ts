// Users' own short domains (src/domains/). Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";
import { users, workspaces } from "./accounts.ts";

/** A user's own short domain (src/domains/): verified by a DNS TXT record, then served as /{linkSlug}. */
export const domains = sqliteTable(
  "domains",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    // Normalised (src/domains/normalise-hostname.ts): lower-case ASCII (punycode), no trailing dot or port.
    // Unverified claims of one name by several accounts do not block each other; one account serves it (decision 0044).
    hostname: text("hostname").notNull(),
    status: text("status").notNull().default("pending"),
    verificationToken: text("verification_token").notNull(),
    lastCheckedAt: integer("last_checked_at", { mode: "timestamp_ms" }),
    // When the records were first found gone (status failing): invalid 7 days later.
    failingSince: integer("failing_since", { mode: "timestamp_ms" }),
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
      sql`${t.appleAppSiteAssociation} is null or length(CAST(${t.appleAppSiteAssociation} AS BLOB)) <= 131072`,
    ),
    check("domains_asset_links_len", sql`${t.assetLinks} is null or length(CAST(${t.assetLinks} AS BLOB)) <= 131072`),
    index("domains_user_idx").on(t.userId),
    index("domains_workspace_idx").on(t.workspaceId),
    uniqueIndex("domains_served_hostname_unique").on(t.hostname).where(sql`${t.status} in ('verified', 'failing')`),
    uniqueIndex("domains_workspace_hostname_unique").on(t.workspaceId, t.hostname),
    index("domains_checked_idx").on(t.lastCheckedAt),
  ],
);
/**
 * What threat feeds and operators list (src/safety/): an exact URL (normalised) or a host (and its subdomains),
 * by source ("urlhaus", "phishtank", "openphish", "hosts", "operator"); looked up by the registrable domain.
 */

/**
 * Bumped by triggers whenever what the host map holds may have changed (a domain's status, names or addresses; an
 * owner suspended, deleted or renamed), by any process: every node polls it (src/domains/host-map.ts).
 */
export const hostMapVersion = sqliteTable("host_map_version", {
  id: integer("id").primaryKey().default(1),
  version: integer("version").notNull(),
});
