// Every background job a server runs (started and stopped by src/jobs/registry.ts), in start order. The parts
// that hold a handle others use (the view recorder, the webhook delivery worker, the app workers) are not jobs:
// src/server.ts starts and stops them around these.
import { finishMarkedDeletions } from "../account/deletion.ts";
import { finishMarkedWorkspaceRemovals } from "../account/workspace-removal.ts";
import { deleteExpiredSessions } from "../auth/sessions.ts";
import type { Config } from "../config/config.ts";
import type { Change } from "../db/change.ts";
import type { DomainHosts } from "../domains/host-map.ts";
import { HOST_MAP_POLL_MS } from "../domains/host-map.ts";
import { RECHECK_EVERY_MS, recheckDomains } from "../domains/recheck-job.ts";
import { sweepUnusedUploads } from "../links/images/sweep-unused.ts";
import { checkLinkHealth, HEALTH_TICK_MAX_MS } from "../rules/health.ts";
import { AUDIT_POLL_MS, auditFollower } from "../safety/audit-follower.ts";
import { refreshFeeds } from "../safety/refresh-feeds.ts";
import type { Services } from "../services.ts";
import type { Job } from "../jobs/registry.ts";
import { pruneAuditEvents } from "../workspaces/audit-prune.ts";

export type ServerJobDeps = {
  config: Config;
  services: Services;
  hosts: DomainHosts;
  /** What a link change made behind this server's back does (the audit follower's finds). */
  changed: (change: Change) => void;
};

export function serverJobs({ config, services, hosts, changed }: ServerJobDeps): Job[] {
  const { db, database, clock } = services;
  const { fetcher } = services.links;
  const { everyMs: healthEveryMs, hostGapMs } = config.linkHealth;
  const { feeds, feedsEveryMs } = config.safety;
  const jobs: (Job | null)[] = [
    // Custom domains changed by any process (the CLI too) are served within a second (src/domains/host-map.ts).
    {
      name: "host-map-watch",
      runs: "node",
      schedule: { atStart: false, everyMs: HOST_MAP_POLL_MS },
      run: () => hosts.reloadIfMoved(),
    },
    {
      name: "domain-recheck",
      runs: "cluster",
      schedule: { atStart: false, everyMs: RECHECK_EVERY_MS },
      run: () => recheckDomains(services.domains),
    },
    {
      name: "upload-sweep",
      runs: "cluster",
      schedule: { atStart: true },
      run: () => sweepUnusedUploads(services, database.kind === "postgres"),
    },
    // Account and workspace deletions a crash stopped part-way (src/account/deletion.ts, workspace-removal.ts).
    {
      name: "account-deletions",
      runs: "cluster",
      schedule: { atStart: true },
      run: async () => {
        const finished = await finishMarkedDeletions(services.deletion);
        if (finished > 0)
          services.log.info(`Finished ${finished} account deletion(s) left unfinished by an interruption`);
        const workspaces = await finishMarkedWorkspaceRemovals(services.deletion);
        if (workspaces > 0)
          services.log.info(`Finished ${workspaces} workspace deletion(s) left unfinished by an interruption`);
      },
    },
    // Idempotent, but N nodes need not all do it.
    {
      name: "session-sweep",
      runs: "cluster",
      schedule: { atStart: true, everyMs: 3_600_000 },
      run: () => deleteExpiredSessions(db, clock.now()),
    },
    // The audit log keeps a year (src/workspaces/audit-prune.ts).
    {
      name: "audit-prune",
      runs: "cluster",
      schedule: { atStart: true, everyMs: 3_600_000 },
      run: () => pruneAuditEvents(db, clock.now()),
    },
    // Needs the safe fetcher: with FETCH_DISABLED no target is ever fetched. LINK_HEALTH_EVERY_MS=0 turns it off.
    fetcher && healthEveryMs > 0
      ? {
          name: "link-health",
          runs: "cluster",
          schedule: { atStart: false, everyMs: Math.min(healthEveryMs, HEALTH_TICK_MAX_MS) },
          run: () =>
            checkLinkHealth({
              database,
              fetcher,
              clock,
              publicUrl: config.publicUrl,
              hostGapMs,
              recheckAfterMs: healthEveryMs,
            }),
        }
      : null,
    feeds.length > 0
      ? {
          name: "threat-feeds",
          runs: "cluster",
          schedule: { atStart: true, everyMs: feedsEveryMs },
          // At start even if another node read them less than an interval ago.
          run: (atStart) =>
            refreshFeeds(services.safety, feeds, feedsEveryMs, (line) => services.log.warn(line), atStart),
        }
      : null,
    // Link changes made by `linkprev admin` on SQLite (src/safety/audit-follower.ts).
    {
      name: "audit-follower",
      runs: "node",
      schedule: { atStart: true, everyMs: AUDIT_POLL_MS },
      run: auditFollower(db, changed),
    },
  ];
  return jobs.filter((job) => job !== null);
}
