// For the PostgreSQL pass (LINKPREV_TEST_DB=postgres): one throwaway cluster per `bun test` process, started on
// first use, with a migrated template; each test server gets a database copied from it (tens of ms). The
// preload (tests/helpers/engine-preload.ts) stops the cluster when the run ends.
import { SQL } from "bun";
import { applyPostgresMigrations } from "../../src/db/postgres/migrate.ts";
import {
  createDatabase,
  randomDatabaseName,
  startThrowawayCluster,
  type ThrowawayCluster,
} from "./postgres-cluster.ts";

const TEMPLATE = "linkprev_template";
let ready: Promise<ThrowawayCluster> | null = null;

async function startMigratedCluster(): Promise<ThrowawayCluster> {
  const cluster = await startThrowawayCluster();
  const templateUrl = await createDatabase(cluster.url, TEMPLATE);
  // Connections to a template block copies of it: migrate, then close.
  const sql = new SQL({ url: templateUrl, max: 1 });
  await applyPostgresMigrations(sql);
  await sql.close();
  return cluster;
}

/** A new, migrated database on the run's cluster; its URL. */
export async function newTestDatabase(): Promise<string> {
  const cluster = await (ready ??= startMigratedCluster());
  return createDatabase(cluster.url, randomDatabaseName(), TEMPLATE);
}

/** Stops the run's cluster, if one was started. */
export async function stopTestCluster(): Promise<void> {
  if (!ready) return;
  const cluster = await ready;
  ready = null;
  await cluster.stop();
}
