// The server's background jobs as one list (src/compose/server-jobs.ts), started and stopped here in one loop:
// docs/decisions/0049. A job says what it runs and when; this module owns the timers, the cluster lock and the
// failure log, so that no job carries its own start and stop shape.
import type { ClusterJobs } from "../db/ports.ts";
import type { Logger } from "../observability/log.ts";

/**
 * How long a stop waits for the runs under way: long enough for a tick's writes, short enough that a long run (link
 * health checks over many targets) never holds a stop past a supervisor's patience. Every run can be cut anywhere:
 * the next one does what it left.
 */
const STOP_GRACE_MS = 10_000;

/** A run at start is awaited before the server listens; `everyMs`: then once per interval (none: once only). */
export type Schedule = { atStart: boolean; everyMs?: number };

export type Job = {
  /** Also the cluster lock's name (ClusterJobs): nodes of different versions must agree on it. */
  name: string;
  /** "cluster": one node at a time runs it (another node's run in progress skips this one); "node": every node. */
  runs: "cluster" | "node";
  schedule: Schedule;
  /** `atStart`: the run awaited at start, not a tick (the threat feeds are read then even if fresh). Result unused. */
  run: (atStart: boolean) => Promise<unknown>;
};

/**
 * Runs each job's start run in list order, then its ticks. A one-off job's failure at start fails the start (its
 * work must be done before serving); a recurring job's is logged, the next tick tries again. A failure is logged
 * when a job starts failing, not at every tick while it keeps failing. A tick is skipped while the job's last run is
 * still going. The returned function stops the ticks and resolves once the runs under way have ended, or after
 * STOP_GRACE_MS with a warning naming those still going: the server closes the database only after that.
 */
export async function startJobs(
  list: Job[],
  cluster: ClusterJobs,
  log: Pick<Logger, "error" | "warn">,
  stopGraceMs = STOP_GRACE_MS,
): Promise<() => Promise<void>> {
  const stops: (() => Promise<string | null>)[] = [];
  for (const job of list) {
    let running: Promise<void> | null = null;
    let failing = false;
    const run = async (atStart: boolean) => void (await job.run(atStart));
    const once = (atStart: boolean) =>
      job.runs === "cluster" ? cluster.exclusively(job.name, () => run(atStart)) : run(atStart);
    const logged = (atStart: boolean) =>
      (running ??= (async () => {
        try {
          await once(atStart);
          failing = false;
        } catch (error) {
          if (!failing) log.error(`${job.name} failed`, error);
          failing = true;
        } finally {
          running = null;
        }
      })());
    const { atStart, everyMs } = job.schedule;
    if (atStart) await (everyMs === undefined ? once(true) : logged(true));
    if (everyMs === undefined) continue;
    const timer = setInterval(() => void logged(false), everyMs);
    timer.unref();
    stops.push(async () => {
      clearInterval(timer);
      if (!running) return null;
      let grace: ReturnType<typeof setTimeout> | undefined;
      const cut = new Promise<string>((resolve) => (grace = setTimeout(() => resolve(job.name), stopGraceMs)));
      const outcome = await Promise.race([running.then(() => null), cut]);
      clearTimeout(grace);
      return outcome;
    });
  }
  return async () => {
    const still = (await Promise.all(stops.map((stop) => stop()))).filter((name) => name !== null);
    if (still.length > 0)
      log.warn(`Stopped without waiting longer for ${still.join(", ")}: the next start's run does what it left`);
  };
}
