// The trust-and-safety operations as `linkprev admin` runs them: on the database directly, the operator named as
// the actor (LINKPREV_OPERATOR is not read: the command line passes who). A running server hears of link changes
// through the change bus (PostgreSQL) or the audit log it follows (src/safety/audit-follower.ts, SQLite).
import { systemClock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import { openPlatform } from "../db/platform.ts";
import { createLogger } from "../observability/log.ts";
import { SafeFetcher } from "../safe-fetch/fetcher.ts";
import { safetyDeps, type SafetyDeps } from "../safety/deps.ts";

export async function openSafety(config: Config): Promise<{ deps: SafetyDeps; close: () => Promise<void> }> {
  const { database, changes } = await openPlatform(config);
  await database.migrate();
  const fetcher = config.fetch.enabled
    ? new SafeFetcher({
        allowPrivate: config.fetch.allowPrivate,
        deadlineMs: config.fetch.deadlineMs,
        userAgent: "LinkPrev admin",
      })
    : null;
  const deps = safetyDeps(config, { database, changes }, systemClock, createLogger(config.logFormat), fetcher, null);
  return { deps, close: () => database.close() };
}
