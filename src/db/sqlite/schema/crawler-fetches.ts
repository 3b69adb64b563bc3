// Each crawler fetch on record (docs/decisions/0066). Re-exported by ../schema.ts.
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
 * SQLite only: each batch's fetches wait here (no index: appending costs little) until the writer's next rollup
 * fold moves them into crawler_fetches in link order, so that a fold writes each page of the per-link index once
 * instead of every batch writing hundreds (docs/decisions/0066). PostgreSQL inserts them with the batch.
 */
export const crawlerFetchQueue = sqliteTable("crawler_fetch_queue", {
  id: integer("id").primaryKey(),
  linkId: integer("link_id").notNull(),
  at: integer("at", { mode: "timestamp_ms" }).notNull(),
  platform: text("platform").notNull(),
  verification: text("verification", { enum: ["verified", "unverified", "unverifiable"] }).notNull(),
  version: integer("version").notNull(),
  rendition: text("rendition"),
  status: integer("status").notNull(),
  bytes: integer("bytes").notNull(),
  ms: real("ms").notNull(),
});

/**
 * Each platform's first fetch of each version of a link: the writer adds a row when a card fetch finds none, and
 * then announces preview.fetched (src/views/first-fetches.ts). WITHOUT ROWID.
 */
export const crawlerFirstFetches = sqliteTable(
  "crawler_first_fetches",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    platform: text("platform").notNull(),
    at: integer("at", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.version, t.platform] })],
);
