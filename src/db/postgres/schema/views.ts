// Views and their counts: the raw rows, the rollups the pages read, and the view writer's bookkeeping. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { ms } from "./columns.ts";
import { links } from "./links.ts";

/** Each distinct User-Agent once: the same few agents make most views, and a view row then holds a number. */
export const userAgents = pgTable("user_agents", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
  text: text("text").notNull().unique(),
});

export const views = pgTable(
  "views",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    // No foreign keys here, unlike SQLite: checking the parents on every insert halved the view write
    // throughput, and the view writer checks the link itself. So nothing cascades either: deleting a user
    // does not delete their views here; whatever deletes users deletes those rows too.
    userId: integer("user_id").notNull(),
    linkId: integer("link_id").notNull(),
    ip: text("ip"),
    userAgentId: integer("user_agent_id"),
    clientWidth: integer("client_width").notNull().default(0),
    clientHeight: integer("client_height").notNull().default(0),
    attribution: text("attribution"),
    isBot: boolean("is_bot").notNull().default(false),
    platform: text("platform"),
    timestamp: ms("timestamp").notNull().defaultNow(),
    scan: boolean("scan").notNull().default(false),
    verification: integer("verification").notNull().default(0),
  },
  // No secondary index: every index is a random write per view on the hot write path. Reads go through
  // the rollups below, which the view writer keeps in the same statement.
);

/**
 * Per-link counts by day and by who fetched, as in schema.ts, plus `slot`: each node adds to its own rows
 * (slot = its node number), so nodes never wait on each other's row locks; readers sum over the slots.
 * The primary key is therefore (link_id, day, platform, slot).
 */
export const viewRollups = pgTable(
  "view_rollups",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    day: text("day").notNull(), // YYYY-MM-DD, UTC
    platform: text("platform").notNull(),
    // PostgreSQL only (see above).
    slot: smallint("slot").notNull().default(0),
    human: integer("human").notNull().default(0),
    bot: integer("bot").notNull().default(0),
    // The newest view this row counts, as in schema.ts.
    lastAt: ms("last_at"),
    scans: integer("scans").notNull().default(0),
    uniqueHumans: integer("unique_humans").notNull().default(0),
    verified: integer("verified").notNull().default(0),
    unverified: integer("unverified").notNull().default(0),
    unverifiable: integer("unverifiable").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.day, t.platform, t.slot] })],
);

/** Each link's all-time counts, as in schema.ts (a trigger on view_rollups keeps them: migration 0014_link_search). */
export const linkTotals = pgTable(
  "link_totals",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    human: integer("human").notNull().default(0),
    bot: integer("bot").notNull().default(0),
    scans: integer("scans").notNull().default(0),
    uniqueHumans: integer("unique_humans").notNull().default(0),
    // The owner and the views (people and crawlers), for "most viewed" on the index (migration 0015).
    userId: integer("user_id"),
    views: integer("views").generatedAlwaysAs(sql`human + bot`),
  },
  (t) => [primaryKey({ columns: [t.linkId] }), index("link_totals_user_views_idx").on(t.userId, t.views, t.linkId)],
);

/** People per link, day and referrer host, as in schema.ts (one row for every node: no slot). */
export const referrerRollups = pgTable(
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
 * Today's visitors' salted hashes, as in schema.ts. Each node hashes with its own salt, so a person who reaches
 * two nodes the same day counts twice (docs/decisions/0010).
 */
export const viewVisitors = pgTable(
  "view_visitors",
  {
    day: text("day").notNull(),
    linkId: integer("link_id").notNull(),
    hash: bigint("hash", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.linkId, t.hash] })],
);

/** As in schema.ts: the view batches stored, by writer slot and sequence, in the batch's own statement. */
export const viewBatches = pgTable(
  "view_batches",
  {
    slot: integer("slot").notNull(),
    seq: bigint("seq", { mode: "number" }).notNull(),
    storedAt: ms("stored_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.slot, t.seq] }), index("view_batches_stored_at_idx").on(t.storedAt)],
);

// No view_rollup_mark: on PostgreSQL a batch's view rows and its rollup upserts commit in one statement, so
