// The stored entities, plus what the server needs (tokens, login links, webhook ids, view rollups).
// Limits live in CHECK constraints so that nothing over-long is stored whichever code path writes.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

const createdAt = () => integer("created_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);
const updatedAt = () => integer("updated_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
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
    deletingSince: integer("deleting_since", { mode: "timestamp_ms" }),
    // Set by an operator (src/safety/suspend-user.ts): the account cannot sign in and its links are disabled.
    suspendedAt: integer("suspended_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("users_user_slug_len", sql`length(${t.userSlug}) between 1 and 20`)],
);

export const links = sqliteTable(
  "links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
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
    uniqueIndex("links_live_slug_unique").on(t.userId, t.linkSlug).where(sql`${t.deleted} = 0`),
    index("links_user_created_idx").on(t.userId, t.deleted, t.createdAt),
    index("links_domain_idx").on(t.domainId),
    index("links_target_domain_idx").on(t.targetDomain),
  ],
);

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    stripeSubscriptionId: text("stripe_subscription_id").notNull().unique(),
    stripePriceId: text("stripe_price_id"),
    status: text("status").notNull(),
    planId: text("plan_id").notNull(),
    isAnnual: integer("is_annual", { mode: "boolean" }).notNull().default(false),
    currentPeriodStart: integer("current_period_start", { mode: "timestamp_ms" }),
    currentPeriodEnd: integer("current_period_end", { mode: "timestamp_ms" }),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    // Stripe's `created` of the newest event applied, so an older event never overwrites newer state.
    stripeEventAt: integer("stripe_event_at").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("subscriptions_user_idx").on(t.userId, t.updatedAt)],
);

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
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
export const userAgents = sqliteTable("user_agents", {
  id: integer("id").primaryKey(),
  text: text("text").notNull().unique(),
});

export const views = sqliteTable(
  "views",
  {
    // No AUTOINCREMENT: it would update sqlite_sequence on every one of the many view inserts.
    id: integer("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
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
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
    day: text("day").notNull(), // YYYY-MM-DD, UTC
    platform: text("platform").notNull(),
    human: integer("human").notNull().default(0),
    bot: integer("bot").notNull().default(0),
    // The newest view this row counts (the writer knows it when folding): when a platform last fetched the card.
    lastAt: integer("last_at", { mode: "timestamp_ms" }),
    // People's rows only: views that came through the QR code, and the day's unique visitors (see viewVisitors).
    scans: integer("scans").notNull().default(0),
    uniqueHumans: integer("unique_humans").notNull().default(0),
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
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
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
 * src/redirect/referrer-counts.ts), written in the view writer's batch transaction; WITHOUT ROWID (the migration
 * says so by hand).
 */
export const referrerRollups = sqliteTable(
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
 * The view batches stored, by writer slot and sequence (src/redirect/view-spool.ts), in the batch's own transaction:
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
 * The link.clicked counts of the open window, per writer slot, link and bucket ("people", "qr" or "crawler:" and
 * the platform), added in each view batch's transaction (src/redirect/click-events.ts). WITHOUT ROWID (by hand).
 */
export const webhookClickCounts = sqliteTable(
  "webhook_click_counts",
  {
    slot: integer("slot").notNull(),
    linkId: integer("link_id").notNull(),
    userId: integer("user_id").notNull(),
    bucket: text("bucket").notNull(),
    n: integer("n").notNull(),
    /** When the window these counts belong to opened (ms). */
    since: integer("since").notNull(),
  },
  (t) => [primaryKey({ columns: [t.slot, t.linkId, t.bucket] })],
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

/**
 * The user slugs of deleted accounts, kept for good so that no later account gets them: the old short URLs and
 * printed QR codes would otherwise lead to someone else's links. Only the slug is kept; /go answers 410 for it.
 */
export const retiredUserSlugs = sqliteTable("retired_user_slugs", {
  userSlug: text("user_slug").primaryKey(),
  retiredAt: createdAt(),
});

export const userConsents = sqliteTable(
  "user_consents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    termsAccepted: integer("terms_accepted", { mode: "boolean" }).notNull().default(true),
    privacyAccepted: integer("privacy_accepted", { mode: "boolean" }).notNull().default(true),
    acceptanceDate: integer("acceptance_date", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [index("user_consents_user_idx").on(t.userId)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the cookie token, never the token itself.
    sid: text("sid").primaryKey(),
    // Whose session: deletion and sign-out-everywhere find a user's sessions by it (sess is opaque JSON).
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    sess: text("sess").notNull(),
    expire: integer("expire", { mode: "timestamp_ms" }).notNull(),
  },
  (t) => [
    check("sessions_sid_len", sql`length(${t.sid}) <= 255`),
    check("sessions_sess_len", sql`length(${t.sess}) <= 8192`),
    index("sessions_expire_idx").on(t.expire),
    index("sessions_user_idx").on(t.userId),
  ],
);

export const apiTokens = sqliteTable(
  "api_tokens",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    name: text("name").notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [check("api_tokens_name_len", sql`length(${t.name}) between 1 and 100`), index("api_tokens_user_idx").on(t.userId)],
);

export const loginLinks = sqliteTable("login_links", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
});

/** Stripe event ids already applied, so a replayed webhook is a no-op. */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: createdAt(),
});

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

export type User = typeof users.$inferSelect;
export type Link = typeof links.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;

/** A user's own short domain (src/domains/): verified by a DNS TXT record, then served as /{linkSlug}. */
export const domains = sqliteTable(
  "domains",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    // Normalised (src/domains/normalise-hostname.ts): lower-case ASCII (punycode), no trailing dot or port.
    hostname: text("hostname").notNull().unique(),
    status: text("status").notNull().default("pending"),
    verificationToken: text("verification_token").notNull(),
    lastCheckedAt: integer("last_checked_at", { mode: "timestamp_ms" }),
    // When the records were first found gone (status failing): invalid 7 days later.
    failingSince: integer("failing_since", { mode: "timestamp_ms" }),
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
/**
 * What threat feeds and operators list (src/safety/): an exact URL (normalised) or a host (and its subdomains),
 * by source ("urlhaus", "phishtank", "openphish", "hosts", "operator"); looked up by the registrable domain.
 */
export const threatEntries = sqliteTable(
  "threat_entries",
  {
    source: text("source").notNull(),
    kind: text("kind").notNull(),
    value: text("value").notNull(),
    domain: text("domain").notNull(),
    addedAt: integer("added_at", { mode: "timestamp_ms" }).notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [primaryKey({ columns: [t.source, t.kind, t.value] }), index("threat_entries_domain_idx").on(t.domain), check("threat_entries_kind", sql`${t.kind} in ('url', 'host')`)],
);

/** Reports sent from the inspect page or POST /api/reports: no account needed, the address stored truncated. */
export const abuseReports = sqliteTable(
  "abuse_reports",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    linkId: integer("link_id").notNull().references(() => links.id, { onDelete: "cascade" }),
    address: text("address").notNull(),
    reason: text("reason").notNull(),
    details: text("details").notNull().default(""),
    reporterAddress: text("reporter_address").notNull(),
    createdAt: createdAt(),
    resolvedAt: integer("resolved_at", { mode: "timestamp_ms" }),
    resolution: text("resolution"),
  },
  (t) => [index("abuse_reports_open_idx").on(t.resolvedAt, t.id), check("abuse_reports_details_len", sql`length(${t.details}) <= 2000`)],
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

/** Where a user's webhook events go (src/webhooks/). `events`: a JSON array of event types; `*_at` numbers are ms. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").notNull(),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signed with until previous_secret_until. */
    previousSecret: text("previous_secret"),
    previousSecretUntil: integer("previous_secret_until"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** The first failed attempt since the last success: failing for 3 days disables the endpoint. */
    failingSince: integer("failing_since"),
    createdAt: createdAt(),
  },
  (t) => [
    check("webhook_endpoints_url_len", sql`length(${t.url}) <= 2048`),
    check("webhook_endpoints_description_len", sql`length(${t.description}) <= 200`),
    index("webhook_endpoints_user_idx").on(t.userId),
  ],
);

/** The outbox: one row per event per endpoint, written in the transaction of the change it announces. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    endpointId: integer("endpoint_id").notNull().references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull().references(() => users.id, { onDelete: "cascade" }),
    /** The webhook-id header: the same on every attempt and resend, so receivers can deduplicate. */
    eventId: text("event_id").notNull(),
    type: text("type").notNull(),
    /** The JSON body sent, {type, timestamp, data}. */
    payload: text("payload").notNull(),
    /** pending, delivered or failed (gave up after the last retry). */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** Due from then; a claim moves it past the attempt's timeout, so a node killed mid-delivery leaves it due again. */
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastStatusCode: integer("last_status_code"),
    lastDurationMs: integer("last_duration_ms"),
    /** The start of the receiver's answer, or why there was none (bounded). */
    lastResponse: text("last_response"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt), index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id), index("webhook_deliveries_user_idx").on(t.userId)],
);
