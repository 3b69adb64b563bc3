// Builds, once per thread, what the app uses of the database and the cluster (ports.ts): which engine runs is
// decided here, from config, and nowhere else.
import type { Config } from "../config/config.ts";
import { createLogger } from "../observability/log.ts";
import type { ChangeBus, HitCounter, Platform } from "./ports.ts";

/**
 * Ports a caller provides in place of the engine's own, each built from the engine's: an app worker relays
 * changes and rate-limit counts to the request thread (app.worker.ts).
 */
export type PortSwaps = {
  changes?: (own: ChangeBus) => ChangeBus;
  hits?: (own: HitCounter) => HitCounter;
};

export async function openPlatform(config: Config, swaps: PortSwaps = {}): Promise<Platform> {
  let platform: Platform;
  if (config.postgres) {
    const { openPostgresPlatform } = await import("./postgres/engine.ts");
    platform = await openPostgresPlatform(config.postgres, createLogger(config.logFormat));
  } else {
    const { openSqlitePlatform } = await import("./sqlite/engine.ts");
    platform = openSqlitePlatform(config.dbPath);
  }
  if (swaps.changes) platform.changes = swaps.changes(platform.changes);
  if (swaps.hits) platform.hits = swaps.hits(platform.hits);
  return platform;
}
