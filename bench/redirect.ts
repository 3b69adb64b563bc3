// /go throughput against the ceiling of a bare Bun.serve 302, measured in the same run, rounds alternating.
// Usage: npm run bench [-- --seconds 10 --rounds 3 --connections 50]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun,
  ensureWrk,
  fmt,
  freePort,
  root,
  runWrk,
  seedDataDir,
  waitForHttp,
  wrkScript,
  type WrkResult,
} from "./lib.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    links: { type: "string", default: "10000" },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

ensureWrk();
console.log(`seeding ${values.links} links...`);
const { dataDir, paths } = seedDataDir(Number(values.links));
const script = wrkScript(paths, 0.2);

const linkprevPort = await freePort();
const barePort = await freePort();
const linkprev = Bun.spawn(
  [bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(linkprevPort), "--data", dataDir],
  {
    env: { ...process.env, NODE_ENV: "production" },
    stdout: "ignore",
    stderr: "inherit",
  },
);
const bare = Bun.spawn([bun, join(root, "bench/bare-302.ts"), String(barePort)], {
  stdout: "ignore",
  stderr: "inherit",
});
await waitForHttp(`http://127.0.0.1:${linkprevPort}/api/version`);
await waitForHttp(`http://127.0.0.1:${barePort}/`);

// Warm both (link cache, JIT) before measuring.
const warmUp = runWrk(`http://127.0.0.1:${linkprevPort}`, script, 3, connections);
runWrk(`http://127.0.0.1:${barePort}`, script, 2, connections);

const results: { bare: WrkResult[]; go: WrkResult[] } = { bare: [], go: [] };
for (let round = 1; round <= rounds; round++) {
  const bareRun = runWrk(`http://127.0.0.1:${barePort}`, script, seconds, connections);
  const goRun = runWrk(`http://127.0.0.1:${linkprevPort}`, script, seconds, connections);
  results.bare.push(bareRun);
  results.go.push(goRun);
  console.log(
    `round ${round}: bare ${fmt(bareRun.rps)} req/s p99 ${fmt(bareRun.p99, 2)} ms | /go ${fmt(goRun.rps)} req/s p99 ${fmt(goRun.p99, 2)} ms | ratio ${fmt(goRun.rps / bareRun.rps, 2)}`,
  );
}

linkprev.kill("SIGTERM");
await linkprev.exited;
bare.kill();

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: number[]) => sum(xs) / xs.length;
const served = sum(results.go.map((r) => r.requests)) + warmUp.requests;
const db = new Database(join(dataDir, "linkprev.db"), { readonly: true });
const stored = (db.query("SELECT count(*) AS n FROM views").get() as { n: number }).n;
const counters = db.query("SELECT sum(human) AS human, sum(bot) AS bot FROM view_rollups").get() as {
  human: number;
  bot: number;
};
db.close();

const bareRps = mean(results.bare.map((r) => r.rps));
const goRps = mean(results.go.map((r) => r.rps));
// Each round's ratio compares two back-to-back runs; their median shrugs off a round this shared VM slowed.
const roundRatios = results.go.map((r, i) => r.rps / results.bare[i]!.rps).sort((a, b) => a - b);
const medianRatio =
  (roundRatios[Math.floor((roundRatios.length - 1) / 2)]! + roundRatios[Math.ceil((roundRatios.length - 1) / 2)]!) / 2;
console.log(`
/go benchmark: ${paths.length} links, ${connections} connections, ${rounds} × ${seconds}s rounds, 20 % crawler agents
                     req/s      p50 ms   p99 ms   errors
bare Bun.serve 302   ${fmt(bareRps).padStart(8)}   ${fmt(mean(results.bare.map((r) => r.p50)), 2).padStart(6)}   ${fmt(mean(results.bare.map((r) => r.p99)), 2).padStart(6)}   ${sum(results.bare.map((r) => r.errors))}
/go with counting    ${fmt(goRps).padStart(8)}   ${fmt(mean(results.go.map((r) => r.p50)), 2).padStart(6)}   ${fmt(mean(results.go.map((r) => r.p99)), 2).padStart(6)}   ${sum(results.go.map((r) => r.errors))}
ratio /go ÷ bare     ${fmt(goRps / bareRps, 2)} (of the means); per round ${roundRatios.map((r) => fmt(r, 2)).join(", ")}, median ${fmt(medianRatio, 2)}
views stored ${fmt(stored)} (counters ${fmt(counters.human + counters.bot)}) for ${fmt(served)} /go responses wrk received (warm-up included;
wrk leaves up to one request per connection in flight when a run ends, served and counted but not received: ≤ ${fmt(connections * (rounds + 1))} here)`);
