// Accounts: users, their sign-in (sessions, API tokens, login links), consents, plans and payments. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, updatedAt } from "./columns.ts";

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    email: text("email").notNull().unique(),
    firstName: text("first_name"),
    lastName: text("last_name"),
    profileImageUrl: text("profile_image_url"),
    userSlug: text("user_slug").notNull().unique(),
    googleSub: text("google_sub").unique(),
    // Set when the owner asked to delete the account: from then on it cannot sign in or serve links, and the
    // deletion steps (src/account/deletion.ts) run until the row is gone, again at start after a crash.
    deletingSince: integer("deleting_since", { mode: "timestamp_ms" }),
    // Set by an operator (src/safety/suspend-user.ts): the account cannot sign in and its links are disabled.
    suspendedAt: integer("suspended_at", { mode: "timestamp_ms" }),
    // Set by an operator (src/safety/trust-user.ts): the new-account limits do not apply to the account.
    trustedAt: integer("trusted_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check("users_user_slug_len", sql`length(${t.userSlug}) between 1 and 20`)],
);

/**
 * Who owns links, domains, webhooks, tokens and the bill (docs/decisions/0063). Every user has a personal one
 * (`personal_user_id`) whose slug is their user slug, so that their addresses never changed; a team workspace's slug
 * shares that one namespace (users, workspaces, retired slugs: src/workspaces/slugs.ts).
 */
export const workspaces = sqliteTable(
  "workspaces",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    slug: text("slug").notNull().unique(),
    name: text("name").notNull(),
    personalUserId: integer("personal_user_id")
      .unique()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    // The bill's (docs/decisions/0069): the Stripe customer invoiced, and the validated EU VAT exemption used at
    // checkout. A personal workspace's are what its user's were.
    stripeCustomerId: text("stripe_customer_id"),
    vatCountryCode: text("vat_country_code"),
    vatNumber: text("vat_number"),
    vatCompanyName: text("vat_company_name"),
  },
  (t) => [
    check("workspaces_slug_len", sql`length(${t.slug}) between 1 and 20`),
    check("workspaces_name_len", sql`length(${t.name}) between 1 and 100`),
  ],
);

/** One role per member (src/workspaces/permissions.ts says what each may do). */
export const workspaceMembers = sqliteTable(
  "workspace_members",
  {
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["owner", "admin", "member", "viewer", "billing"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    check("workspace_members_role", sql`${t.role} in ('owner', 'admin', 'member', 'viewer', 'billing')`),
    index("workspace_members_user_idx").on(t.userId),
  ],
);

export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
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
  (t) => [
    index("subscriptions_user_idx").on(t.userId, t.updatedAt),
    index("subscriptions_workspace_idx").on(t.workspaceId, t.updatedAt),
  ],
);

export const payments = sqliteTable(
  "payments",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    // Null once the account is deleted: the record stays for the invoices, detached (docs/decisions/0011).
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    workspaceId: integer("workspace_id").references(() => workspaces.id, { onDelete: "set null" }),
    stripePaymentIntentId: text("stripe_payment_intent_id").notNull().unique(),
    stripeInvoiceId: text("stripe_invoice_id"),
    amount: integer("amount").notNull(),
    currency: text("currency").notNull().default("usd"),
    status: text("status").notNull(),
    paymentMethod: text("payment_method"),
    receiptUrl: text("receipt_url"),
    createdAt: createdAt(),
  },
  (t) => [
    check("payments_currency_len", sql`length(${t.currency}) = 3`),
    index("payments_user_idx").on(t.userId),
    index("payments_workspace_idx").on(t.workspaceId),
  ],
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
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    termsAccepted: integer("terms_accepted", { mode: "boolean" }).notNull().default(true),
    privacyAccepted: integer("privacy_accepted", { mode: "boolean" }).notNull().default(true),
    acceptanceDate: integer("acceptance_date", { mode: "timestamp_ms" })
      .notNull()
      .default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [index("user_consents_user_idx").on(t.userId)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    // SHA-256 of the cookie token, never the token itself.
    sid: text("sid").primaryKey(),
    // Whose session: deletion and sign-out-everywhere find a user's sessions by it (sess is opaque JSON).
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
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
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // The workspace the token acts in (its creator is user_id).
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull().unique(),
    name: text("name").notNull(),
    // Space-separated scopes (src/auth/token-scopes.ts); null: every power, as tokens made before scopes had.
    scopes: text("scopes"),
    // Past it the token is refused; null: never.
    expiresAt: integer("expires_at", { mode: "timestamp_ms" }),
    createdAt: createdAt(),
    lastUsedAt: integer("last_used_at", { mode: "timestamp_ms" }),
  },
  (t) => [
    check("api_tokens_name_len", sql`length(${t.name}) between 1 and 100`),
    index("api_tokens_user_idx").on(t.userId),
    index("api_tokens_workspace_idx").on(t.workspaceId),
  ],
);

export const loginLinks = sqliteTable("login_links", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  expiresAt: integer("expires_at", { mode: "timestamp_ms" }).notNull(),
  usedAt: integer("used_at", { mode: "timestamp_ms" }),
});

/** Stripe event ids already applied, so a replayed webhook is a no-op. */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: createdAt(),
});

export type User = typeof users.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
