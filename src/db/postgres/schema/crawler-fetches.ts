// Each crawler fetch on record, as in the SQLite schema's crawler-fetches.ts (docs/decisions/0066). Re-exported by
// ../schema.ts.
import { bigint, doublePrecision, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { ms } from "./columns.ts";
import { links } from "./links.ts";

export const crawlerFetches = pgTable(
  "crawler_fetches",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedByDefaultAsIdentity(),
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    at: ms("at").notNull(),
    platform: text("platform").notNull(),
    verification: text("verification", { enum: ["verified", "unverified", "unverifiable"] }).notNull(),
    version: integer("version").notNull(),
    rendition: text("rendition"),
    status: integer("status").notNull(),
    bytes: integer("bytes").notNull(),
    ms: doublePrecision("ms").notNull(),
  },
  (t) => [index("crawler_fetches_link_idx").on(t.linkId, t.id), index("crawler_fetches_at_idx").on(t.at)],
);

export const crawlerFirstFetches = pgTable(
  "crawler_first_fetches",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    version: integer("version").notNull(),
    platform: text("platform").notNull(),
    at: ms("at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.linkId, t.version, t.platform] })],
);
