// When every core is busy, /go's request thread runs before pages: the app workers lower their own thread's
// priority (APP_WORKER_NICE, src/threads/thread-priority.ts), and only theirs. Read from /proc, as the scheduler sees it.
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** The nice value of each thread of this process (the test servers run in it). */
function threadNices(): number[] {
  return readdirSync("/proc/self/task").flatMap((tid) => {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
    } catch (error) {
      // A thread of an earlier test's server that ended between the listing and the read.
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ESRCH") return [];
      throw error;
    }
    // After the command name in parentheses: state is field 3, nice field 19.
    return [Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16])];
  });
}

test.skipIf(process.platform !== "linux")(
  "app workers run at APP_WORKER_NICE; the request thread keeps its priority",
  async () => {
    const before = threadNices().filter((nice) => nice === 7).length;
    const server = await startTestServer({ APP_WORKERS: "2", APP_WORKER_NICE: "7" });
    servers.push(server);
    expect(threadNices().filter((nice) => nice === 7).length - before).toBe(2);
    const mainThread = readFileSync("/proc/self/stat", "utf8");
    expect(Number(mainThread.slice(mainThread.lastIndexOf(")") + 2).split(" ")[16])).toBe(0);
    // The workers still answer.
    expect((await fetch(`${server.url}/about`)).status).toBe(200);
  },
);
