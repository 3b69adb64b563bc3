// LinkPrev on a throwaway PostgreSQL cluster (tests/helpers/postgres-cluster.ts), for the tests that run `linkprev
// serve` processes (tests/helpers/nodes.ts) or the engine on PostgreSQL: the cluster, fresh databases with a client
// each, the nodes started on them, and one teardown that names what failed.
import { afterAll, beforeAll } from "bun:test";
import { SQL } from "bun";
import { cleanUp } from "./named-steps.ts";
import { startNode, stopNode, type Node } from "./nodes.ts";
import {
  createDatabase,
  findPgBin,
  randomDatabaseName,
  startThrowawayCluster,
  type ThrowawayCluster,
} from "./postgres-cluster.ts";

/** True where PostgreSQL is installed; otherwise false, after saying which tests are skipped for it. */
export function postgresInstalled(skipped: string): boolean {
  const installed = findPgBin() !== null;
  if (!installed) console.warn(`PostgreSQL is not installed (apt-get install postgresql), skipped: ${skipped}`);
  return installed;
}

export type PgCluster = {
  cluster: ThrowawayCluster;
  /** A fresh, empty database and a client on it. */
  database(): Promise<{ url: string; db: SQL }>;
  /** `linkprev serve` with `env`, on `dataDir` when given (kept then), else on a new one. */
  node(env: Record<string, string>, dataDir?: string): Promise<Node>;
  /** Kills every node started, closes every client, stops the cluster. */
  stop(): Promise<void>;
};

/** A throwaway cluster (about a second) that remembers what it started, for one stop(). */
export async function startPgCluster(): Promise<PgCluster> {
  const cluster = await startThrowawayCluster();
  const clients: SQL[] = [];
  const nodes: Array<{ node: Node; keepData: boolean }> = [];
  return {
    cluster,
    async database() {
      const url = await createDatabase(cluster.url, randomDatabaseName());
      const db = new SQL({ url, max: 2 });
      clients.push(db);
      return { url, db };
    },
    async node(env, dataDir) {
      const node = await startNode(env, dataDir);
      nodes.push({ node, keepData: dataDir !== undefined });
      return node;
    },
    stop: () =>
      cleanUp([
        ...nodes.map(({ node, keepData }, i): [string, () => unknown] => [
          `stopping node ${i + 1}`,
          () => stopNode(node, { signal: "SIGKILL", keepData }),
        ]),
        ...clients.map((db, i): [string, () => unknown] => [`closing PostgreSQL client ${i + 1}`, () => db.close()]),
        ["stopping the PostgreSQL cluster", () => cluster.stop()],
      ]),
  };
}

export type PgNodes = PgCluster & { databaseUrl: string; db: SQL; nodes: Node[] };

/**
 * A throwaway cluster with one database and a node for each of `slots` on it (NODE_SLOT, `env` on top), started
 * together: both apply the migrations at start, under one lock.
 */
export async function startPgNodes(slots: number[], env: Record<string, string> = {}): Promise<PgNodes> {
  const pg = await startPgCluster();
  try {
    const { url, db } = await pg.database();
    // Settled, not all: a node still starting when another fails must be known to stop().
    const started = await Promise.allSettled(
      slots.map((slot) => pg.node({ DATABASE_URL: url, NODE_SLOT: String(slot), ...env })),
    );
    const nodes = started.map((result) => {
      if (result.status === "rejected") throw result.reason;
      return result.value;
    });
    return { ...pg, databaseUrl: url, db, nodes };
  } catch (error) {
    await pg.stop();
    throw error;
  }
}

/**
 * startPgNodes before the tests of the describe it is called in (after its hooks registered earlier; `env` is read
 * then), and their stop after them; what it started, for those tests.
 */
export function usePgNodes(slots: number[], env: () => Record<string, string> = () => ({})): () => PgNodes {
  let pg: PgNodes | undefined;
  beforeAll(async () => {
    pg = await startPgNodes(slots, env());
  });
  afterAll(() => pg?.stop());
  return () => {
    if (!pg) throw new Error("The PostgreSQL nodes start before the tests: use them in a test");
    return pg;
  };
}
