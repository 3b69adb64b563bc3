// Webhooks (src/webhooks/): endpoints, the outbox of deliveries, and link.clicked counts of the open window. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { check, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt } from "./columns.ts";
import { users, workspaces } from "./accounts.ts";

/**
 * The link.clicked counts of the open window, per writer slot, link and bucket ("people", "qr" or "crawler:" and
 * the platform), added in each view batch's transaction (src/views/click-events.ts). WITHOUT ROWID (by hand).
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

/** Where a user's webhook events go (src/webhooks/). `events`: a JSON array of event types; `*_at` numbers are ms. */
export const webhookEndpoints = sqliteTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events").notNull(),
    secret: text("secret").notNull(),
    /** The secret before the last rotation, still signed with until previous_secret_until. */
    previousSecret: text("previous_secret"),
    previousSecretUntil: integer("previous_secret_until"),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** Paused by its owner: its events are still recorded and wait, unsent, until it is resumed. */
    paused: integer("paused", { mode: "boolean" }).notNull().default(false),
    /** The first failed attempt since the last success: failing for 3 days disables the endpoint. */
    failingSince: integer("failing_since"),
    createdAt: createdAt(),
  },
  (t) => [
    check("webhook_endpoints_url_len", sql`length(${t.url}) <= 2048`),
    check("webhook_endpoints_description_len", sql`length(${t.description}) <= 200`),
    index("webhook_endpoints_user_idx").on(t.userId),
    index("webhook_endpoints_workspace_idx").on(t.workspaceId),
  ],
);

/** The outbox: one row per event per endpoint, written in the transaction of the change it announces. */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
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
  (t) => [
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_user_idx").on(t.userId),
    index("webhook_deliveries_workspace_idx").on(t.workspaceId),
  ],
);
