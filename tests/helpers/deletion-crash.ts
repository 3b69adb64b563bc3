// A deletion killed part-way, for tests/reliability/*-deletion-crash.test.ts: for each step of a deletion, a node on
// this run's engine that kills itself (kill -9) right after that step — the tests-only hook
// TEST_CRASH_DURING_DELETE_AFTER — then started again on the same data directory and database.
import { afterAll, beforeAll, describe, expect } from "bun:test";
import { join } from "node:path";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { startNode, stopNode, type Node } from "./nodes.ts";
import { newTestDatabase } from "./postgres-test-cluster.ts";
import { testEngine } from "./server.ts";
import { postgresTestDb, sqliteTestDb, type TestDb } from "./test-db.ts";

/** The steps of a deletion after which the hook may kill the process, in their order. */
const STEPS = ["mark", "announce", "stripe", "links", "access"];

export type CrashingNode = {
  /** The running node: the one that crashes, then the one started after it. */
  node: Node;
  sql: TestDb;
  stripe: FakeStripe;
  /** Expects `request` to fail because the node is killed (kill -9) while answering it. */
  crash(request: Promise<Response>): Promise<void>;
  /** Starts the node again, without the hook, on the killed one's data directory and database. */
  restart(): Promise<void>;
};

/** Registers one describe per step ("killed right after the <step> step"); `body` declares its tests. */
export function describeEachDeletionCrash(body: (crashing: CrashingNode) => void): void {
  let stripe: FakeStripe;
  beforeAll(() => {
    stripe = startFakeStripe();
  });
  afterAll(() => stripe.stop());

  describe.each(STEPS)("killed right after the %s step", (step) => {
    let node: Node;
    let sql: TestDb;
    let databaseEnv: Record<string, string>;
    const crashing: CrashingNode = {
      get node() {
        return node;
      },
      get sql() {
        return sql;
      },
      get stripe() {
        return stripe;
      },
      async crash(request) {
        await expect(request).rejects.toThrow();
        expect(await node.child.exited).not.toBe(0);
        expect(node.child.signalCode).toBe("SIGKILL");
      },
      async restart() {
        const { dataDir } = node;
        await stopNode(node, { keepData: true });
        node = await startNode({ ...stripe.env, ...databaseEnv }, dataDir);
      },
    };

    beforeAll(async () => {
      databaseEnv = testEngine === "postgres" ? { DATABASE_URL: await newTestDatabase() } : {};
      node = await startNode({ ...stripe.env, ...databaseEnv, TEST_CRASH_DURING_DELETE_AFTER: step });
      sql =
        testEngine === "postgres"
          ? postgresTestDb(databaseEnv.DATABASE_URL!)
          : sqliteTestDb(join(node.dataDir, "linkprev.db"));
    });
    afterAll(async () => {
      await sql.close();
      await stopNode(node, { signal: "SIGKILL" });
    });

    body(crashing);
  });
}
