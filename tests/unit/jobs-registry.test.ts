// The background jobs' registry (src/jobs/registry.ts): start order, the cluster lock, failures, overlapping ticks.
import { expect, test } from "bun:test";
import type { ClusterJobs } from "../../src/db/ports.ts";
import { startJobs, type Job } from "../../src/jobs/registry.ts";

/** A logger for jobs that are not expected to fail. */
const quiet = {
  error: (message: string, error: unknown) => expect(`${message}: ${String(error)}`).toBe("no failure"),
  warn: (message: string) => expect(message).toBe("no warning"),
};

/** A cluster where another node holds the locks named in `held`. */
const clusterHolding = (held: string[], locked: string[] = []): ClusterJobs => ({
  exclusively: async (name, job) => {
    locked.push(name);
    if (!held.includes(name)) await job();
  },
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until `done` holds (a loaded machine delays timers). */
async function until(done: () => boolean) {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 5000) throw new Error("waited 5 s");
    await sleep(5);
  }
}

test("start runs go in list order, awaited; a cluster job takes its lock and a node job none", async () => {
  const ran: string[] = [];
  const locked: string[] = [];
  const job = (name: string, runs: Job["runs"]): Job => ({
    name,
    runs,
    schedule: { atStart: true },
    run: async (atStart) => {
      await sleep(1);
      ran.push(`${name}:${atStart}`);
    },
  });
  const stop = await startJobs(
    [job("a", "cluster"), job("b", "node"), job("c", "cluster")],
    clusterHolding(["c"], locked),
    quiet,
  );
  expect(ran).toEqual(["a:true", "b:true"]);
  expect(locked).toEqual(["a", "c"]);
  await stop();
});

test("a one-off job's failure at start fails the start; a recurring one's is logged once while it keeps failing", async () => {
  const broken = async () => {
    throw new Error("database away");
  };
  await expect(
    startJobs([{ name: "once", runs: "node", schedule: { atStart: true }, run: broken }], clusterHolding([]), quiet),
  ).rejects.toThrow("database away");
  const errors: string[] = [];
  let runs = 0;
  const stop = await startJobs(
    [{ name: "every", runs: "node", schedule: { atStart: true, everyMs: 2 }, run: () => (runs++, broken()) }],
    clusterHolding([]),
    { ...quiet, error: (message, error) => errors.push(`${message}: ${String(error)}`) },
  );
  await until(() => runs >= 3);
  await stop();
  expect(errors).toEqual(["every failed: Error: database away"]);
});

test("a tick is skipped while the last run goes on; stop ends the ticks and waits for the run under way", async () => {
  let running = 0;
  let most = 0;
  let runs = 0;
  const stop = await startJobs(
    [
      {
        name: "slow",
        runs: "node",
        schedule: { atStart: false, everyMs: 2 },
        run: async () => {
          runs++;
          most = Math.max(most, ++running);
          await sleep(15);
          running--;
        },
      },
    ],
    clusterHolding([]),
    quiet,
  );
  await until(() => runs >= 3 && running === 1);
  await stop();
  // The server closes the database once stop has resolved: no run may still be using it.
  expect(running).toBe(0);
  const after = runs;
  await sleep(30);
  expect(most).toBe(1);
  expect(runs).toBe(after);
});

test("a stop waits no longer than its grace for a run that does not end, and says which", async () => {
  const warnings: string[] = [];
  let started = false;
  const stop = await startJobs(
    [
      {
        name: "link-health",
        runs: "node",
        schedule: { atStart: false, everyMs: 2 },
        run: () => ((started = true), new Promise(() => {})),
      },
    ],
    clusterHolding([]),
    { ...quiet, warn: (message) => warnings.push(message) },
    20,
  );
  await until(() => started);
  await stop();
  expect(warnings).toEqual(["Stopped without waiting longer for link-health: the next start's run does what it left"]);
});
