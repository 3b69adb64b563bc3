// Trust and safety (src/safety/): threat entries and feeds, reports, the operators' audit log. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns.ts";
import { domains } from "./domains.ts";
import { links } from "./links.ts";

export const threatEntries = sqliteTable(
  "threat_entries",
  {
    source: text("source").notNull(),
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    domain: text("domain").notNull(),
    addedAt: integer("added_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.kind, t.value] }),
    index("threat_entries_domain_idx").on(t.domain),
    check("threat_entries_kind", sql`${t.kind} in ('url', 'host')`),
  ],
);

/** Reports sent from the inspect page or POST /api/reports: no account needed, the address stored truncated. */
export const abuseReports = sqliteTable(
  "abuse_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    reason: text("reason").notNull(),
    details: text("details").notNull().default(""),
    reporterAddress: text("reporter_address").notNull(),
    createdAt: createdAt(),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    resolution: text("resolution"),
  },
  (t) => [
    index("abuse_reports_open_idx").on(t.resolvedAt, t.id),
    check("abuse_reports_details_len", sql`length(${t.details}) <= 2000`),
  ],
);

/** Every operator action of `linkprev admin` (and each automatic disable): who, what, when, why. */
export const auditLog = sqliteTable("audit_log", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  at: integer("at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  actor: text("actor").notNull(),
  action: text("action").notNull(),
  subject: text("subject").notNull(),
  reason: text("reason").notNull().default(""),
});

/** Each threat feed's last refresh (one node refreshes per interval for all): its last good copy and last failure. */
export const threatFeeds = sqliteTable("threat_feeds", {
  source: text("source").primaryKey(),
  checkedAt: integer("checked_at", { mode: "timestamp_ms" }).notNull(),
  refreshedAt: integer("refreshed_at", { mode: "timestamp_ms" }),
  entries: integer("entries").notNull().default(0),
  error: text("error"),
});

/**
 * Every address a person can be sent to other than a link's own target (links.target_domain): a link's rule targets
 * and expired address, a custom domain's root and not-found addresses (docs/decisions/0042). Indexed by the
 * registrable domain, as threat entries are matched; null until the first feed refresh fills it (rows copied by
 * migration 0022).
 */
export const destinations = sqliteTable(
  "destinations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    linkId: integer("link_id").references(() => links.id, { onDelete: "cascade" }),
    domainId: integer("domain_id").references(() => domains.id, { onDelete: "cascade" }),
    /** Where the owner wrote it: "expiredUrl", "rules.0.targetUrl", "rootUrl", "notFoundUrl". */
    field: text("field").notNull(),
    url: text("url").notNull(),
    targetDomain: text("target_domain"),
  },
  (t) => [
    index("destinations_target_domain_idx").on(t.targetDomain),
    index("destinations_link_idx").on(t.linkId),
    index("destinations_domain_idx").on(t.domainId),
    check("destinations_owner", sql`(${t.linkId} is null) <> (${t.domainId} is null)`),
  ],
);
