// The PostgreSQL twin of src/db/sqlite/schema.ts: the same exports, table and column names, nullability and
// TypeScript types, so that services written against one run against the other. Where they differ it is on
// purpose and said below; tests/unit/schema-parity.test.ts holds the two together and lists each difference.
// Timestamps are timestamptz(3) read as Date (SQLite keeps ms integers read as Date); booleans are boolean.
// CHECK constraints use length(), which PostgreSQL has for text as SQLite does.
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";

const ms = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: "date" });
const createdAt = () => ms("created_at").notNull().defaultNow();
const updatedAt = () => ms("updated_at").notNull().defaultNow();

/** bytea as Uint8Array. Drivers hand back a Buffer (a Uint8Array), or with type parsing off the `\x…` hex text. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array | string }>({
  dataType() {
    return "bytea";
  },
  toDriver(value) {
    return value;
  },
  fromDriver(value) {
    if (typeof value === "string") return new Uint8Array(Buffer.from(value.startsWith("\\x") ? value.slice(2) : value, "hex"));
    return value;
  },
});

export const users = pgTable(
  "users",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    email: text("email").notNull().unique(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    stripeCustomerId: text("stripe_customer_id"),
    userSlug: text("user_slug").notNull().unique(),
    googleSub: text("google_sub").unique(),
    // Validated EU VAT exemption, used at checkout.
    vatCountryCode: text("vat_country_code"),
    vatNumber: text("vat_number"),
    vatCompanyName: text("vat_company_name"),
    // Set when the owner asked to delete the account: from then on it cannot sign in or serve links, and the
    // deletion steps (src/account/deletion.ts) run until the row is gone, again at start after a crash.
    deletingSince: ms("deleting_since"),
    // As in schema.ts: set by an operator, the account cannot sign in and its links are disabled.
    suspendedAt: ms("suspended_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("users_user_slug_len", sql`length(${t.userSlug}) between 1 and 20`)],
);

export const links = pgTable(
  "links",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
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
    status: text("status", { enum: ["active", "disabled"] }).notNull().default("active"),
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
    // A slug is unique per user among live links; deleted links keep theirs but no longer hold it.
    uniqueIndex("links_live_slug_unique").on(t.userId, t.linkSlug).where(sql`${t.deleted} = false`),
    index("links_user_created_idx").on(t.userId, t.deleted, t.createdAt),
    index("links_domain_idx").on(t.domainId),
    index("links_target_domain_idx").on(t.targetDomain),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    stripeSubscriptionId: text("stripe_subscription_id").notNull().unique(),
    stripePriceId: text("stripe_price_id"),
    status: text("status").notNull(),
    planId: text("plan_id").notNull(),
    isAnnual: boolean("is_annual").notNull().default(false),
    currentPeriodStart: ms("current_period_start"),
    currentPeriodEnd: ms("current_period_end"),
    cancelAtPeriodEnd: boolean("cancel_at_period_end").notNull().default(false),
    // Stripe's `created` of the newest event applied, so an older event never overwrites newer state.
    stripeEventAt: bigint("stripe_event_at", { mode: "number" }).notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("subscriptions_user_idx").on(t.userId, t.updatedAt)],
);

export const payments = pgTable(
  "payments",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    // Null once the account is deleted: the record stays for the invoices, detached (docs/decisions/0011).
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    stripePaymentIntentId: text("stripe_payment_intent_id").notNull().unique(),
    stripeInvoiceId: text("stripe_invoice_id"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status").notNull(),
    paymentMethod: text("payment_method"),
    receiptUrl: text("receipt_url"),
    createdAt: createdAt(),
  },
  (t) => [check("payments_currency_len", sql`length(${t.currency}) = 3`), index("payments_user_idx").on(t.userId)],
);

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
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
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
  },
  (t) => [primaryKey({ columns: [t.linkId, t.day, t.platform, t.slot] })],
);

/** Each link's all-time counts, as in schema.ts (a trigger on view_rollups keeps them: migration 0014_link_search). */
export const linkTotals = pgTable(
  "link_totals",
  {
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
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
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
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

/** As in schema.ts: the link.clicked counts of each node's open window, added in each view batch's statement. */
export const webhookClickCounts = pgTable(
  "webhook_click_counts",
  {
    slot: integer("slot").notNull(),
    linkId: integer("link_id").notNull(),
    userId: integer("user_id").notNull(),
    bucket: text("bucket").notNull(),
    n: integer("n").notNull(),
    since: bigint("since", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.slot, t.linkId, t.bucket] })],
);

// No view_rollup_mark: on PostgreSQL a batch's view rows and its rollup upserts commit in one statement, so
// there is never a crash gap between them to fold in at start.

/** As in schema.ts: the slugs of deleted accounts, never given again. */
export const retiredUserSlugs = pgTable("retired_user_slugs", {
  userSlug: text("user_slug").primaryKey(),
  retiredAt: createdAt(),
});

export const userConsents = pgTable(
  "user_consents",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    termsAccepted: boolean("terms_accepted").notNull().default(true),
    privacyAccepted: boolean("privacy_accepted").notNull().default(true),
    acceptanceDate: ms("acceptance_date").notNull().defaultNow(),
  },
  (t) => [index("user_consents_user_idx").on(t.userId)],
);

export const sessions = pgTable(
  "sessions",
  {
    // SHA-256 of the cookie token, never the token itself.
    sid: text("sid").primaryKey(),
    // Whose session: deletion and sign-out-everywhere find a user's sessions by it (sess is opaque JSON).
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    sess: text("sess").notNull(),
    expire: ms("expire").notNull(),
  },
  (t) => [
    check("sessions_sid_len", sql`length(${t.sid}) <= 255`),
    check("sessions_sess_len", sql`length(${t.sess}) <= 8192`),
    index("sessions_expire_idx").on(t.expire),
    index("sessions_user_idx").on(t.userId),
  ],
);

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: ms("last_used_at"),
  },
  (t) => [check("api_tokens_name_len", sql`length(${t.name}) between 1 and 100`), index("api_tokens_user_idx").on(t.userId)],
);

export const loginLinks = pgTable("login_links", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  expiresAt: ms("expires_at").notNull(),
  usedAt: ms("used_at"),
});

/** Stripe event ids already applied, so a replayed webhook is a no-op. */
export const stripeEvents = pgTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: createdAt(),
});

/** Where a user's webhook events go (src/webhooks/). `events`: a JSON array of event types; `*_at` numbers are ms. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").notNull(),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signed with until previous_secret_until. */
    previousSecret: text("previous_secret"),
    previousSecretUntil: bigint("previous_secret_until", { mode: "number" }),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** The first failed attempt since the last success: failing for 3 days disables the endpoint. */
    failingSince: bigint("failing_since", { mode: "number" }),
    createdAt: createdAt(),
  },
  (t) => [
    check("webhook_endpoints_url_len", sql`length(${t.url}) <= 2048`),
    check("webhook_endpoints_description_len", sql`length(${t.description}) <= 200`),
    index("webhook_endpoints_user_idx").on(t.userId),
  ],
);

/** The outbox: one row per event per endpoint, written in the transaction of the change it announces. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    endpointId: integer("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    payload: text("payload").notNull(),
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: bigint("next_attempt_at", { mode: "number" }).notNull(),
    lastStatusCode: integer("last_status_code"),
    lastDurationMs: integer("last_duration_ms"),
    lastResponse: text("last_response"),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt), index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id), index("webhook_deliveries_user_idx").on(t.userId)],
);

/**
 * PostgreSQL only: the sign-in rate limit's counts, shared by every node so that the limit holds across the
 * cluster (one SQLite server keeps them in memory). One row per key and fixed window (its start, ms).
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: bigint("window_start", { mode: "number" }).notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

/** PostgreSQL only: uploaded images when UPLOADS_STORE=db, so that every node serves them (else files in the data dir). */
export const uploads = pgTable("uploads", {
  name: text("name").primaryKey(),
  contentType: text("content_type").notNull(),
  bytes: bytea("bytes").notNull(),
  createdAt: createdAt(),
});

export type User = typeof users.$inferSelect;
export type Link = typeof links.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;

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

/** As in schema.ts: a user's own short domain. */
export const domains = pgTable(
  "domains",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    hostname: text("hostname").notNull().unique(),
    status: text("status").notNull().default("pending"),
    verificationToken: text("verification_token").notNull(),
    lastCheckedAt: ms("last_checked_at"),
    failingSince: ms("failing_since"),
    reason: text("reason"),
    rootUrl: text("root_url"),
    notFoundUrl: text("not_found_url"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("domains_status", sql`${t.status} in ('pending', 'verified', 'failing', 'invalid')`),
    check("domains_hostname_len", sql`length(${t.hostname}) <= 253`),
    check("domains_root_url_len", sql`${t.rootUrl} is null or length(${t.rootUrl}) <= 2048`),
    check("domains_not_found_url_len", sql`${t.notFoundUrl} is null or length(${t.notFoundUrl}) <= 2048`),
    index("domains_user_idx").on(t.userId),
    index("domains_checked_idx").on(t.lastCheckedAt),
  ],
);
/** What threat feeds and operators list, as in schema.ts. */
export const threatEntries = pgTable(
  "threat_entries",
  {
    source: text("source").notNull(),
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    domain: text("domain").notNull(),
    addedAt: ms("added_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.source, t.kind, t.value] }), index("threat_entries_domain_idx").on(t.domain), check("threat_entries_kind", sql`${t.kind} in ('url', 'host')`)],
);

/** Reports of links, as in schema.ts. */
export const abuseReports = pgTable(
  "abuse_reports",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    reason: text("reason").notNull(),
    details: text("details").notNull().default(""),
    reporterAddress: text("reporter_address").notNull(),
    createdAt: createdAt(),
    resolvedAt: ms("resolved_at"),
    resolution: text("resolution"),
  },
  (t) => [index("abuse_reports_open_idx").on(t.resolvedAt, t.id), check("abuse_reports_details_len", sql`length(${t.details}) <= 2000`)],
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
