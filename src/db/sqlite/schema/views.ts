// Views and their counts: the raw rows, the rollups the pages read, and the view writer's bookkeeping. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { users } from "./accounts.ts";
import { links } from "./links.ts";

/** Each distinct User-Agent once: the same few agents make most views, and a view row then holds a number. */
export const userAgents = sqliteTable("user_agents", {
  id: integer("id").primaryKey(),
  text: text("text").notNull().unique(),
});

export const views = sqliteTable(
  "views",
  {
    // No AUTOINCREMENT: it would update sqlite_sequence on every one of the many view inserts.
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    ip: text("ip"),
    userAgentId: integer("user_agent_id").references(() => userAgents.id),
    clientWidth: integer("client_width").notNull().default(0),
    clientHeight: integer("client_height").notNull().default(0),
    attribution: text("attribution"),
    isBot: integer("is_bot", { mode: "boolean" }).notNull().default(false),
    platform: text("platform"),
    timestamp: integer("timestamp", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
    // A person who came through the link's QR code (`?qr=1`); SQLite stores 0 and 1 in the row header alone.
    scan: integer("scan", { mode: "boolean" }).notNull().default(false),
    // A crawler view's verification by network (src/views/crawler-verification.ts's codes): 0 none, 1 verified,
    // 2 unverified, 3 unverifiable. Kept so that a recount of the rollups finds it (docs/decisions/0066).
    verification: integer("verification").notNull().default(0),
  },
  // No secondary index: every index is a random write per view on the hot write path. Reads go through
  // the rollups below, which the view writer keeps in the same transaction.
);

/**
 * Per-link counts by day and by who fetched: `platform` is the crawler's platform, or '' for people. One
 * table serves a link's totals (the link JSON's viewsHuman / viewsBot), its daily chart and its crawler breakdown,
 * so a batch of views costs one upsert per link, day and platform (three tables cost twice that; see
 * docs/decisions/0001). WITHOUT ROWID (migration 0002, which drizzle cannot express): one b-tree per upsert.
 */
export const viewRollups = sqliteTable(
  "view_rollups",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    day: text("day").notNull(), // YYYY-MM-DD, UTC
    platform: text("platform").notNull(),
    human: integer("human").notNull().default(0),
    bot: integer("bot").notNull().default(0),
    // The newest view this row counts (the writer knows it when folding): when a platform last fetched the card.
    lastAt: integer("last_at", { mode: "timestamp_ms" }),
    // People's rows only: views that came through the QR code, and the day's unique visitors (see viewVisitors).
    scans: integer("scans").notNull().default(0),
    uniqueHumans: integer("unique_humans").notNull().default(0),
    // Crawlers' rows only: their views by verification by network (docs/decisions/0066).
    verified: integer("verified").notNull().default(0),
    unverified: integer("unverified").notNull().default(0),
    unverifiable: integer("unverifiable").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.day, t.platform] })],
);

/**
 * Each link's all-time counts (the sums of its view_rollups rows), kept by triggers on view_rollups (migration
 * 0016_link_search), so the dashboard's totals and "most viewed" read one row per link.
 */
export const linkTotals = sqliteTable(
  "link_totals",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    human: integer("human").notNull().default(0),
    bot: integer("bot").notNull().default(0),
    scans: integer("scans").notNull().default(0),
    uniqueHumans: integer("unique_humans").notNull().default(0),
    // The owner and the views (people and crawlers), for "most viewed" on the index (migration 0017).
    userId: integer("user_id"),
    views: integer("views").generatedAlwaysAs(sql`human + bot`, { mode: "virtual" }),
  },
  (t) => [primaryKey({ columns: [t.linkId] }), index("link_totals_user_views_idx").on(t.userId, t.views, t.linkId)],
);

/**
 * People per link, day and referrer host (lower-case host only; '' for none, '*' for the hosts past the day's cap,
 * src/views/referrer-counts.ts), written in the view writer's batch transaction; WITHOUT ROWID (the migration
 * says so by hand).
 */
export const referrerRollups = sqliteTable(
  "referrer_rollups",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    day: text("day").notNull(), // YYYY-MM-DD, UTC
    host: text("host").notNull(),
    human: integer("human").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.day, t.host] }), index("referrer_rollups_day_idx").on(t.day)],
);

/**
 * Today's visitors of each link, as hashes of a salt that only the view writer's memory holds, the link, the full
 * client address and the User-Agent: a person seen again the same day is not counted again. Deleted at the UTC
 * day change; the day's count stays in view_rollups.unique_humans (docs/decisions/0010). WITHOUT ROWID (the
 * migration says so by hand): one b-tree per insert.
 */
export const viewVisitors = sqliteTable(
  "view_visitors",
  {
    day: text("day").notNull(), // YYYY-MM-DD, UTC
    linkId: integer("link_id").notNull(),
    hash: integer("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.linkId, t.hash] })],
);

/**
 * The view batches stored, by writer slot and sequence (src/views/view-spool.ts), in the batch's own transaction:
 * a batch replayed after it was stored is recognised and skipped. WITHOUT ROWID (the migration says so by hand).
 */
export const viewBatches = sqliteTable(
  "view_batches",
  {
    slot: integer("slot").notNull(),
    seq: integer("seq").notNull(),
    storedAt: integer("stored_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [primaryKey({ columns: [t.slot, t.seq] }), index("view_batches_stored_at_idx").on(t.storedAt)],
);

/**
 * The last view id the rollups count (one row). The view writer folds newer rows in every few seconds and
 * moves this in the same transaction; at start it folds in whatever a crash left beyond it.
 */
export const viewRollupMark = sqliteTable(
  "view_rollup_mark",
  {
    id: integer("id").primaryKey(),
    lastViewId: integer("last_view_id").notNull(),
  },
  (t) => [check("view_rollup_mark_one_row", sql`${t.id} = 1`)],
);
