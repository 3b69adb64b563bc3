// Each crawler fetch on record, and the crawler views by verification (docs/decisions/0066). Re-exported by ../schema.ts.
import { index, integer, primaryKey, real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { links } from "./links.ts";

/**
 * One row per card fetch (and per platform check from a platform's network): written by the view writer in the
 * batch's transaction, kept for the last 1,000 per link and 90 days (src/views/crawler-fetches.ts).
 */
export const crawlerFetches = sqliteTable(
  "crawler_fetches",
  {
    id: integer("id").primaryKey(),
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
    platform: text("platform").notNull(),
    verification: text("verification", { enum: ["verified", "unverified", "unverifiable"] }).notNull(),
    version: integer("version").notNull(),
    // The card variant served; null for a 302 (a platform's check with a browser's User-Agent).
    rendition: text("rendition"),
    status: integer("status").notNull(),
    bytes: integer("bytes").notNull(),
    ms: real("ms").notNull(),
  },
  (t) => [index("crawler_fetches_link_idx").on(t.linkId, t.id), index("crawler_fetches_at_idx").on(t.at)],
);

/**
 * Crawler views per link, day and platform by verification (all time, unlike the record above): the dashboard's and
 * the statistics' verified and unverified counts. Written in the view writer's batch transaction; WITHOUT ROWID.
 */
export const crawlerFetchCounts = sqliteTable(
  "crawler_fetch_counts",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    day: text("day").notNull(), // YYYY-MM-DD, UTC
    platform: text("platform").notNull(),
    verified: integer("verified").notNull().default(0),
    unverified: integer("unverified").notNull().default(0),
    unverifiable: integer("unverifiable").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.day, t.platform] })],
);
