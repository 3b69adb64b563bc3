// What the webhook operations are given, and the messages they share.
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Database, Db, WebhookQueue } from "../db/ports.ts";
import type { SafeFetcher } from "../safe-fetch/fetcher.ts";

export type WebhookDeps = {
  db: Db;
  database: Database;
  clock: Clock;
  billingEnabled: boolean;
  /** Judges endpoint URLs and sends deliveries (FETCH_ALLOW_PRIVATE applies; FETCH_DISABLED does not). */
  fetcher: SafeFetcher;
  queue: WebhookQueue;
  settings: Config["webhooks"];
};

export const ENDPOINT_NOT_FOUND = "Webhook endpoint not found";
