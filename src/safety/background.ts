// The trust-and-safety work a server does on its own: the threat feeds read at start and then once per interval
// for the cluster (refresh-feeds.ts), and the audit log followed for link changes made by `linkprev admin`
// (audit-follower.ts). Returns what stops both.
import type { Change } from "../db/change.ts";
import type { ClusterJobs } from "../db/ports.ts";
import type { FeedSource } from "./feeds/formats.ts";
import { followAudit } from "./audit-follower.ts";
import type { SafetyDeps } from "./deps.ts";
import { refreshFeeds } from "./refresh-feeds.ts";

export async function startSafetyWork(
  deps: SafetyDeps,
  jobs: ClusterJobs,
  feeds: { feeds: FeedSource[]; feedsEveryMs: number },
  invalidate: (change: Change) => void,
): Promise<() => void> {
  const refresh = (force: boolean) =>
    refreshFeeds(deps, jobs, feeds.feeds, feeds.feedsEveryMs, (line) => deps.log.warn(line), force).catch((error) =>
      deps.log.error("threat feed refresh failed", error),
    );
  await refresh(true);
  const timer = setInterval(() => void refresh(false), feeds.feedsEveryMs);
  timer.unref();
  const stopFollowing = followAudit(deps.db, invalidate);
  return () => {
    clearInterval(timer);
    stopFollowing();
  };
}
