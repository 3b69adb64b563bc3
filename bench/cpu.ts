// CPU per /go request, per thread, for a list of commits, one server at a time (spawn, warm, measure idle CPU,
// then a wrk run): where a build spends its time, which throughput ratios on a loaded machine cannot say.
// Usage: npm run bench:cpu -- REF[@KEY=VALUE,…] [REF …] [--seconds 8 --rounds 2]   (a setting after @: that build runs with it)
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun,
  checkoutRef,
  ensureWrk,
  fmt,
  freePort,
  runWrk,
  seedDataDir,
  threadCpuSeconds,
  waitForHttp,
  wrkScript,
} from "./lib.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { seconds: { type: "string", default: "8" }, rounds: { type: "string", default: "2" } },
});
const seconds = Number(values.seconds);
ensureWrk();
const builds: ({ ref: string; env: Record<string, string> } & Awaited<ReturnType<typeof checkoutRef>>)[] = [];
const trees = new Map<string, Awaited<ReturnType<typeof checkoutRef>>>();
for (const label of positionals) {
  // REF or REF@KEY=VALUE,KEY=VALUE: the same build with settings of its own.
  const [ref, settings = ""] = label.split("@") as [string, string?];
  if (!trees.has(ref)) trees.set(ref, await checkoutRef(ref));
  builds.push({
    ref: label,
    env: Object.fromEntries(
      settings
        .split(",")
        .filter(Boolean)
        .map((kv) => kv.split("=")),
    ),
    ...trees.get(ref)!,
  });
}
const byThread = (before: Map<string, number>, after: Map<string, number>, pid: number) => {
  const out: Record<string, number> = { request: 0, workers: 0, other: 0 };
  for (const [key, value] of after) {
    const used = value - (before.get(key) ?? 0);
    if (key.startsWith(`${pid}:`)) out.request! += used;
    else if (key.endsWith(":Worker")) out[`w${key.split(":")[0]}`] = used;
    else out.other! += used;
  }
  return out;
};
for (let round = 0; round < Number(values.rounds); round++) {
  for (const build of builds) {
    const { dataDir, paths } = seedDataDir(10_000, 100, build.migrate);
    const script = wrkScript(paths, 0.2);
    const port = await freePort();
    const child = Bun.spawn(
      [bun, join(build.tree, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir],
      { env: { ...process.env, NODE_ENV: "production", ...build.env }, stdout: "ignore", stderr: "inherit" },
    );
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/api/version`);
    runWrk(url, script, 4, 50);
    await Bun.sleep(1000);
    const idle0 = threadCpuSeconds(child.pid);
    await Bun.sleep(4000);
    const idle = byThread(idle0, threadCpuSeconds(child.pid), child.pid);
    const t0 = threadCpuSeconds(child.pid);
    const run = runWrk(url, script, seconds, 50);
    const p99 = run.p99;
    const busy = byThread(t0, threadCpuSeconds(child.pid), child.pid);
    child.kill("SIGTERM");
    await child.exited;
    const perReq = Object.entries(busy)
      .filter(([, v]) => v > 0.05)
      .map(([k, v]) => `${k} ${fmt((v * 1e6) / run.requests, 1)}`);
    const idleMs = (Object.values(idle).reduce((a, b) => a + b, 0) * 1000) / 4;
    console.log(
      `${build.ref.padEnd(10)} ${fmt(run.rps).padStart(7)} req/s | µs/req: ${perReq.join(", ")} | idle ${fmt(idleMs, 1)} ms CPU/s | p99 ${fmt(p99, 1)} ms`,
    );
  }
}
