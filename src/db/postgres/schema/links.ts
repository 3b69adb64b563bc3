// Links and what hangs off each one: its rules and (UPLOADS_STORE=db) its uploaded images. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { ms, createdAt, updatedAt, bytea } from "./columns.ts";
import { users, workspaces } from "./accounts.ts";
import { domains } from "./domains.ts";

export const links = pgTable(
  "links",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    deleted: boolean("deleted").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: ms("deleted_at"),
    // When the card last changed, as in schema.ts (nullable there too: null = created_at).
    cardUpdatedAt: ms("card_updated_at"),
    // The newest version of the short URL and the last Facebook re-scrape, as in schema.ts.
    version: integer("version").notNull().default(1),
    facebookScrapeAt: ms("facebook_scrape_at"),
    facebookScrapeOk: boolean("facebook_scrape_ok"),
    facebookScrapeMessage: text("facebook_scrape_message"),
    // Card variants (docs/decisions/0009), null for an external image or none: the kept upright source of an upload
    // (bounded JPEG) and the square and X renditions cut from it around the focal point (image_url is the wide
    // one); a link from before them serves its one image to every platform until a new upload.
    imageSourceUrl: text("image_source_url"),
    imageSquareUrl: text("image_square_url"),
    imageXUrl: text("image_x_url"),
    focalX: doublePrecision("focal_x").notNull().default(0.5),
    focalY: doublePrecision("focal_y").notNull().default(0.5),
    // Short text for one platform (null: the link's own); limits checked by the API (src/links/model.ts).
    xTitle: text("x_title"),
    whatsappDescription: text("whatsapp_description"),
    // The custom domain the link is served on as /{linkSlug} (null: the instance host only); /go/… serves it too.
    domainId: integer("domain_id").references(() => domains.id, { onDelete: "set null" }),
    // Trust and safety, as in schema.ts.
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
    uniqueIndex("links_live_slug_unique").on(t.workspaceId, t.linkSlug).where(sql`${t.deleted} = false`),
    index("links_user_created_idx").on(t.userId, t.deleted, t.createdAt),
    index("links_workspace_created_idx").on(t.workspaceId, t.deleted, t.createdAt),
    index("links_domain_idx").on(t.domainId),
    index("links_target_domain_idx").on(t.targetDomain),
    // The addresses whose link was disabled and then deleted: a new link there is born disabled (src/links/create.ts).
    index("links_disabled_address_idx")
      .on(t.workspaceId, t.linkSlug)
      .where(sql`${t.deleted} = true and ${t.status} = 'disabled'`),
  ],
);

/** PostgreSQL only: uploaded images when UPLOADS_STORE=db, so that every node serves them (else files in the data dir). */
export const uploads = pgTable("uploads", {
  name: text("name").primaryKey(),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: createdAt(),
});

/**
 * A link's rules and health (src/rules/): `go_rules` is the JSON /go serves from its cached row (null: no rules, and
 * no cost on /go); `clicks` the people counted against its maxClicks, taken one by one with an atomic UPDATE.
 */
export const linkRules = pgTable(
  "link_rules",
  {
    linkId: integer("link_id")
      .notNull()
      .references(() => links.id, { onDelete: "cascade" }),
    goRules: text("go_rules"),
    clicks: integer("clicks").notNull().default(0),
    healthStatus: text("health_status").notNull().default("unchecked"),
    healthCheckedAt: ms("health_checked_at"),
    healthHttpStatus: integer("health_http_status"),
    healthFinalUrl: text("health_final_url"),
    /** The target the last failed check was about (the link's own or a rule's); null once every target answers. */
    healthFailedUrl: text("health_failed_url"),
    healthFailures: integer("health_failures").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.linkId] }), check("link_rules_go_rules_len", sql`length(${t.goRules}) <= 16384`)],
);

/** As in schema.ts: a link's earlier addresses (docs/decisions/0047). */
export const linkOldAddresses = pgTable(
  "link_old_addresses",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    droppedAt: ms("dropped_at"),
  },
  (t) => [
    index("link_old_addresses_slug_idx").on(t.workspaceId, t.linkSlug),
    index("link_old_addresses_link_idx").on(t.linkId),
  ],
);

export type Link = typeof links.$inferSelect;
