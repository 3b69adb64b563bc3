// Trust and safety in /metrics: target checks and hits by source (counted in memory, src/safety/deps.ts), and
// disabled links, open reports and the feeds' state (read from the database when scraped).
import client from "prom-client";
import type { SafetyCounts } from "../safety/deps.ts";
import type { SafetyState } from "../safety/state.ts";

export type SafetySources = { counts: SafetyCounts; state: () => Promise<SafetyState> };

export function registerSafetyMetrics(registry: client.Registry, { counts, state }: SafetySources): void {
  new client.Counter({
    name: "linkprev_safety_checks_total",
    help: "Link targets checked against the threat feeds, blocked hosts and Web Risk",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(counts.checks);
    },
  });
  new client.Counter({
    name: "linkprev_safety_hits_total",
    help: "Targets refused and links disabled, by source (urlhaus, phishtank, openphish, hosts, operator, web-risk)",
    labelNames: ["source"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [source, hits] of counts.hits) this.inc({ source }, hits);
    },
  });
  new client.Counter({
    name: "linkprev_threat_feed_failures_total",
    help: "Feed refreshes that failed on this node (the last good copy stays)",
    labelNames: ["source"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [source, failures] of counts.feedFailures) this.inc({ source }, failures);
    },
  });
  let latest: Promise<SafetyState> | null = null;
  // One read per scrape, shared by the gauges below.
  const read = () => (latest ??= state().finally(() => queueMicrotask(() => (latest = null))));
  new client.Gauge({
    name: "linkprev_links_disabled",
    help: "Live links disabled, by reason (a feed, operator, account suspended)",
    labelNames: ["reason"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await read()).disabled) this.set({ reason: row.reason }, row.links);
    },
  });
  new client.Gauge({
    name: "linkprev_reports_open",
    help: "Reports not yet resolved (linkprev admin reports list)",
    registers: [registry],
    async collect() {
      this.set((await read()).openReports);
    },
  });
  new client.Gauge({
    name: "linkprev_threat_feed_entries",
    help: "Entries of each feed's last good copy",
    labelNames: ["source"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const feed of (await read()).feeds) this.set({ source: feed.source }, feed.entries);
    },
  });
  new client.Gauge({
    name: "linkprev_threat_feed_failing",
    help: "1 when a feed's last refresh failed (its last good copy is in use), else 0",
    labelNames: ["source"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const feed of (await read()).feeds) this.set({ source: feed.source }, feed.failing ? 1 : 0);
    },
  });
}
