// Links and what hangs off each one: its rules. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";
import { users, workspaces } from "./accounts.ts";
import { domains } from "./domains.ts";

export const links = sqliteTable(
  "links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // The workspace the link belongs to (its slug is the first part of the short URL); who created it and who
    // last edited it (null: nobody since it was created, or that account is gone).
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    updatedByUserId: integer("updated_by_user_id").references(() => users.id, { onDelete: "set null" }),
    linkSlug: text("link_slug").notNull(),
    targetUrl: text("target_url").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    imageUrl: text("image_url"),
    imageSource: text("image_source"),
    imageWidth: integer("image_width"),
    imageHeight: integer("image_height"),
    // For the preview lint (src/previews/lint.ts), null for an external image: the stored JPEG's size, and the
    // uploaded file as it arrived, before normalising.
    imageBytes: integer("image_bytes"),
    imageSourceWidth: integer("image_source_width"),
    imageSourceHeight: integer("image_source_height"),
    imageSourceBytes: integer("image_source_bytes"),
    deleted: integer("deleted", { mode: "boolean" }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: integer("deleted_at", { mode: "timestamp_ms" }),
    // When the card (title, description or image) last changed, not the target: a platform that fetched it
    // before then shows an old card (GET /api/links/:id/platforms). Set by the service; null = created_at
    // (SQLite cannot add a NOT NULL column with a non-constant default; migration 0004 backfills).
    cardUpdatedAt: integer("card_updated_at", { mode: "timestamp_ms" }),
    // The newest version of the short URL (POST /api/links/:id/versions): /go/{user}/{link}/{n} serves 1 ≤ n ≤
    // version; 1 is the plain address.
    version: integer("version").notNull().default(1),
    // The last re-scrape Facebook was asked for (FACEBOOK_APP_ID): when, whether it worked, what Facebook said.
    facebookScrapeAt: integer("facebook_scrape_at", { mode: "timestamp_ms" }),
    facebookScrapeOk: integer("facebook_scrape_ok", { mode: "boolean" }),
    facebookScrapeMessage: text("facebook_scrape_message"),
    // Card variants (docs/decisions/0009), null for an external image or none: the kept upright source of an upload
    // (bounded JPEG) and the square and X renditions cut from it around the focal point (image_url is the wide
    // one); a link from before them serves its one image to every platform until a new upload.
    imageSourceUrl: text("image_source_url"),
    imageSquareUrl: text("image_square_url"),
    imageXUrl: text("image_x_url"),
    focalX: real("focal_x").notNull().default(0.5),
    focalY: real("focal_y").notNull().default(0.5),
    // Short text for one platform (null: the link's own); limits checked by the API (src/links/model.ts).
    xTitle: text("x_title"),
    whatsappDescription: text("whatsapp_description"),
    // The custom domain the link is served on as /{linkSlug} (null: the instance host only); /go/… serves it too.
    domainId: integer("domain_id").references(() => domains.id, { onDelete: "set null" }),
    // Trust and safety (src/safety/): a disabled link shows a neutral card and a warning, never its own card;
    // the reason names who disabled it. target_domain: the target's registrable domain, what feed entries are
    // matched against by index (null: from before it, filled by the first feed refresh).
    status: text("status", { enum: ["active", "disabled"] })
      .notNull()
      .default("active"),
    disabledReason: text("disabled_reason"),
    targetDomain: text("target_domain"),
  },
  (t) => [
    check("links_status", sql`${t.status} in ('active', 'disabled')`),
    check("links_link_slug_len", sql`length(${t.linkSlug}) between 1 and 20`),
    check("links_target_url_len", sql`length(${t.targetUrl}) <= 2048`),
    check("links_title_len", sql`length(${t.title}) <= 255`),
    check("links_description_len", sql`length(${t.description}) <= 2048`),
    check("links_image_url_len", sql`${t.imageUrl} is null or length(${t.imageUrl}) <= 2048`),
    check("links_image_source", sql`${t.imageSource} is null or ${t.imageSource} in ('upload', 'ai')`),
    // A slug is unique per workspace among live links; deleted links keep theirs but no longer hold it.
    uniqueIndex("links_live_slug_unique").on(t.workspaceId, t.linkSlug).where(sql`${t.deleted} = 0`),
    index("links_user_created_idx").on(t.userId, t.deleted, t.createdAt),
    index("links_workspace_created_idx").on(t.workspaceId, t.deleted, t.createdAt),
    index("links_domain_idx").on(t.domainId),
    index("links_target_domain_idx").on(t.targetDomain),
    // The addresses whose link was disabled and then deleted: a new link there is born disabled (src/links/create.ts).
    index("links_disabled_address_idx")
      .on(t.workspaceId, t.linkSlug)
      .where(sql`${t.deleted} = 1 and ${t.status} = 'disabled'`),
  ],
);

/**
 * A link's rules and health (src/rules/): `go_rules` is the JSON /go serves from its cached row (null: no rules, and
 * no cost on /go); `clicks` the people counted against its maxClicks, taken one by one with an atomic UPDATE.
 */
export const linkRules = sqliteTable(
  "link_rules",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    goRules: text("go_rules"),
    clicks: integer("clicks").notNull().default(0),
    healthStatus: text("health_status").notNull().default("unchecked"),
    healthCheckedAt: integer("health_checked_at", { mode: "timestamp_ms" }),
    healthHttpStatus: integer("health_http_status"),
    healthFinalUrl: text("health_final_url"),
    /** The target the last failed check was about (the link's own or a rule's); null once every target answers. */
    healthFailedUrl: text("health_failed_url"),
    healthFailures: integer("health_failures").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.linkId] }), check("link_rules_go_rules_len", sql`length(${t.goRules}) <= 16384`)],
);

/**
 * A link's earlier addresses (docs/decisions/0047): a slug it was renamed from, or the custom domain it was moved
 * off (`domain_id`: the domain the address was on; null: the instance's /go only). /go serves the link there while
 * `link_id` is set; once its owner drops one, `link_id` is null, the address answers 410 Gone and its owner can
 * never take the slug again. No foreign key on the domain: a removed domain serves nothing anyway.
 */
export const linkOldAddresses = sqliteTable(
  "link_old_addresses",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    linkId: integer("link_id").references(() => links.id, { onDelete: "cascade" }),
    linkSlug: text("link_slug").notNull(),
    domainId: integer("domain_id"),
    createdAt: createdAt(),
    droppedAt: integer("dropped_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    index("link_old_addresses_slug_idx").on(t.workspaceId, t.linkSlug),
    index("link_old_addresses_link_idx").on(t.linkId),
  ],
);

export type Link = typeof links.$inferSelect;
