// The request thread's /metrics (METRICS_TOKEN or METRICS_PORT; none without either): what it reads, composed.
import type { Config } from "../config/config.ts";
import { ServerMetrics } from "../metrics/metrics.ts";
import { safetyState } from "../safety/state.ts";
import type { Services } from "../services.ts";
import type { DeliveryWorker } from "../webhooks/delivery-worker.ts";
import { queueStats } from "../webhooks/queue-stats.ts";
import type { GoSide } from "./go-side.ts";

/** `appInFlight`: the requests the app workers are answering now (read when scraped). */
export function composeMetrics(
  config: Config,
  services: Services,
  goSide: GoSide,
  webhooks: DeliveryWorker,
  appInFlight: () => number,
): ServerMetrics | null {
  if (config.metrics.token === null && config.metrics.port === null) return null;
  const { db, clock } = services;
  return new ServerMetrics({
    go: goSide.counts,
    cache: goSide.cache,
    views: goSide.views,
    appInFlight,
    databasePoolMax: config.postgres?.poolMax ?? null,
    safety: { counts: services.safety.counts, state: () => safetyState(db) },
    webhooks: { outcomes: webhooks.outcomes, queue: () => queueStats(db, clock.now()) },
    images: { budget: services.imageBudget, work: services.imageWork },
  });
}
