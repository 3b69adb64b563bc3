// A node killed (kill -9) while it holds a cluster-wide job (retention, re-verification, feed refresh) does not block
// it: the job's lock goes with the node's connection, and the next node to try runs it. Through the ClusterJobs
// port of src/db/postgres/engine.ts, on a throwaway cluster; skipped, saying so, where PostgreSQL is not installed.
import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { openPostgresPlatform } from "../../src/db/postgres/engine.ts";
import { createLogger } from "../../src/observability/log.ts";
import type { Platform } from "../../src/db/ports.ts";
import { postgresInstalled, startPgCluster, type PgCluster } from "../helpers/cluster.ts";
import { eventually } from "../helpers/eventually.ts";

const available = postgresInstalled("the cluster job takeover test");

let pg: PgCluster | null = null;
let platform: Platform | null = null;
afterAll(async () => {
  await platform?.database.close();
  await pg?.stop();
});

test.skipIf(!available)(
  "a job held by a node killed with kill -9 runs on the next node that tries",
  async () => {
    pg = await startPgCluster();
    const { url } = await pg.database();
    platform = await openPostgresPlatform({ url, poolMax: 2, waitSeconds: 5, nodeSlot: 1 }, createLogger("text"));
    const holder = Bun.spawn(
      [process.execPath, join(import.meta.dir, "../fixtures/hold-cluster-job.ts"), url, "retention"],
      { stdout: "pipe", stderr: "inherit" },
    );
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("holding");

    let runs = 0;
    // While the other node holds it, this one skips the job.
    await platform.jobs.exclusively("retention", async () => void runs++);
    expect(runs).toBe(0);

    holder.kill("SIGKILL");
    await holder.exited;
    // The next try (each job's interval) runs it: the lock went with the killed node's connection.
    await eventually(
      async () => {
        await platform!.jobs.exclusively("retention", async () => void runs++);
        expect(runs).toBe(1);
      },
      { timeoutMs: 5000, intervalMs: 100, what: "the job to run on the surviving node" },
    );
  },
  60_000,
);
