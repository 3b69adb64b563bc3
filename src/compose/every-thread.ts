// What every thread's composition builds alike from the config: the request thread's and each app worker's
// (src/services.ts), and the webhook delivery worker's (src/webhooks/delivery.worker.ts), which does not load
// the services.
import type { Config } from "../config/config.ts";
import { fetcherUserAgent, SafeFetcher } from "../safe-fetch/fetcher.ts";

/** Whether Stripe is configured (STRIPE_*): without it everyone has enterprise limits (self-hosting). */
export const isBillingEnabled = (config: Config) => config.stripe !== null;

/** The thread's one fetcher of outside URLs (FETCH_ALLOW_PRIVATE applies; FETCH_DISABLED is for its users to heed). */
export const safeFetcher = (config: Config) =>
  new SafeFetcher({
    allowPrivate: config.fetch.allowPrivate,
    deadlineMs: config.fetch.deadlineMs,
    userAgent: fetcherUserAgent(config.publicUrl),
  });
