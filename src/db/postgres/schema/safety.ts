// Trust and safety (src/safety/): threat entries and feeds, reports, the operators' audit log. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ms, createdAt } from "./columns.ts";
import { domains } from "./domains.ts";
import { links } from "./links.ts";

export const threatEntries = pgTable(
  "threat_entries",
  {
    source: text("source").notNull(),
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    domain: text("domain").notNull(),
    addedAt: ms("added_at").notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.kind, t.value] }),
    index("threat_entries_domain_idx").on(t.domain),
    check("threat_entries_kind", sql`${t.kind} in ('url', 'host')`),
  ],
);

/** Reports of links, as in schema.ts. */
export const abuseReports = pgTable(
  "abuse_reports",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    reason: text("reason").notNull(),
    details: text("details").notNull().default(""),
    reporterAddress: text("reporter_address").notNull(),
    createdAt: createdAt(),
    resolvedAt: ms("resolved_at"),
    resolution: text("resolution"),
  },
  (t) => [
    index("abuse_reports_open_idx").on(t.resolvedAt, t.id),
    check("abuse_reports_details_len", sql`length(${t.details}) <= 2000`),
  ],
);

/** Operator actions, as in schema.ts. */
export const auditLog = pgTable("audit_log", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  at: ms("at").notNull().defaultNow(),
  actor: text("actor").notNull(),
  action: text("action").notNull(),
  subject: text("subject").notNull(),
  reason: text("reason").notNull().default(""),
});

/** Each threat feed's last refresh, as in schema.ts. */
export const threatFeeds = pgTable("threat_feeds", {
  source: text("source").primaryKey(),
  checkedAt: ms("checked_at").notNull(),
  refreshedAt: ms("refreshed_at"),
  entries: integer("entries").notNull().default(0),
  error: text("error"),
});

/** Every address a person can be sent to besides a link's target, as in schema.ts. */
export const destinations = pgTable(
  "destinations",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    linkId: integer("link_id").references(() => links.id, { onDelete: "cascade" }),
    domainId: integer("domain_id").references(() => domains.id, { onDelete: "cascade" }),
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
