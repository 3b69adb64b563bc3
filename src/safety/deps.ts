// What the trust-and-safety operations (src/safety/*.ts) are given, built once in src/services.ts.
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../observability/log.ts";
import type { ChangeBus, Database } from "../db/ports.ts";
import type { SafeFetcher } from "../safe-fetch/fetcher.ts";
import { webRiskClient, type WebRisk } from "./web-risk.ts";

export type SafetyCountEvent = { check: boolean; hit: string | null; hits: number };
/** Where an app worker sends the counts it takes: to the request thread's (src/app.worker.ts). */
export type SafetyCountsRelay = (event: SafetyCountEvent) => void;

/**
 * Plain increments, read by /metrics on the request thread (src/metrics/metrics.ts); an app worker's go
 * there through the relay it is built with.
 */
export class SafetyCounts {
  checks = 0;
  /** Refusals and disables, by source key (urlhaus, operator, web-risk, …). */
  readonly hits = new Map<string, number>();
  /** Feed refreshes that failed (the last good copy stayed), by source key. */
  readonly feedFailures = new Map<string, number>();

  constructor(private readonly relay: SafetyCountsRelay | null) {}

  count(event: SafetyCountEvent): void {
    if (this.relay) return this.relay(event);
    if (event.check) this.checks++;
    if (event.hit) this.hits.set(event.hit, (this.hits.get(event.hit) ?? 0) + event.hits);
  }
}

export type SafetyDeps = {
  database: Database;
  changes: ChangeBus;
  clock: Clock;
  log: Logger;
  /** PUBLIC_URL: the link.disabled events' short URLs are built on it. */
  publicUrl: string;
  /** Follows a target's redirects (CHECK_TARGET_REDIRECTS) and fetches feeds given by URL; null when fetching is off. */
  fetcher: SafeFetcher | null;
  checkRedirects: boolean;
  webRisk: WebRisk | null;
  limits: { newAccountHours: number; newAccountLinks: number; targetHostLinksPerHour: number };
  counts: SafetyCounts;
  /** A hash of the last text stored per source, by process: an unchanged feed is not parsed, logged or written again. */
  feedTexts: Map<string, bigint | number>;
};

/** The deps for this configuration: the server's composition root and `linkprev admin` build them alike. */
export function safetyDeps(
  config: Config,
  platform: { database: Database; changes: ChangeBus },
  clock: Clock,
  log: Logger,
  fetcher: SafeFetcher | null,
  countsRelay: SafetyCountsRelay | null,
): SafetyDeps {
  return {
    database: platform.database,
    changes: platform.changes,
    clock,
    log,
    publicUrl: config.publicUrl,
    fetcher,
    checkRedirects: config.safety.checkRedirects,
    webRisk: config.safety.webRisk ? webRiskClient(config.safety.webRisk) : null,
    limits: config.safety,
    counts: new SafetyCounts(countsRelay),
    feedTexts: new Map(),
  };
}
