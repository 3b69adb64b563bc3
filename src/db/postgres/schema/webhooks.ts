// Webhooks (src/webhooks/): endpoints, the outbox of deliveries, and link.clicked counts of the open window. Re-exported by ../schema.ts.
import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { createdAt } from "./columns.ts";
import { users, workspaces } from "./accounts.ts";

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

/** Where a user's webhook events go (src/webhooks/). `events`: a JSON array of event types; `*_at` numbers are ms. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
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
    previousSecretUntil: bigint("previous_secret_until", { mode: "number" }),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** Paused by its owner: its events are still recorded and wait, unsent, until it is resumed. */
    paused: boolean("paused").notNull().default(false),
    /** The first failed attempt since the last success: failing for 3 days disables the endpoint. */
    failingSince: bigint("failing_since", { mode: "number" }),
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
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: integer("id").primaryKey().generatedByDefaultAsIdentity(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
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
  (t) => [
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_user_idx").on(t.userId),
    index("webhook_deliveries_workspace_idx").on(t.workspaceId),
  ],
);
