// What the webhook operations are given, and the messages they share.
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { Database, Platform, WebhookQueue } from "../db/ports.ts";
import type { Logger } from "../observability/log.ts";
import type { SafeFetcher } from "../safe-fetch/fetcher.ts";

export type WebhookDeps = {
  database: Database;
  clock: Clock;
  log: Logger;
  billingEnabled: boolean;
  /** Judges endpoint URLs and sends deliveries (FETCH_ALLOW_PRIVATE applies; FETCH_DISABLED does not). */
  fetcher: SafeFetcher;
  queue: WebhookQueue;
  settings: Config["webhooks"];
};

/**
 * The deps on a thread's platform: the services' (src/services.ts) and the delivery worker's (delivery.worker.ts).
 * `fetcher`: the thread's, even where auto-fill is turned off (FETCH_DISABLED): webhooks are sent anyway.
 */
export function webhookDeps(
  config: Config,
  platform: Platform,
  clock: Clock,
  log: Logger,
  built: { fetcher: SafeFetcher; billingEnabled: boolean },
): WebhookDeps {
  const { database } = platform;
  return {
    database,
    clock,
    log,
    ...built,
    queue: platform.webhooks,
    settings: config.webhooks,
  };
}

export const ENDPOINT_NOT_FOUND = "Webhook endpoint not found";

/** Test events and resends an account may ask for a minute: each is one more delivery to send. */
export const SENDS_PER_MINUTE = 20;
