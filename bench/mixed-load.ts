// /go latency at a fixed offered load, alone and beside the rest of the app (docs/decisions/0006), in one run on one server.
//
// Latency means something only below saturation: an unpaced /go load uses every core, so any CPU a page takes
// comes out of /go whatever the design. So this finds /go's unpaced maximum first, then drives /go at a fixed rate
// well below it (paced wrk connections, `--go-share` of the maximum) and alternates two phases, round by round:
//   A  paced /go alone;
//   B  the same paced /go plus, flat out beside it, 2 connections reloading the dashboard (GET /admin), 1 connection
//      of API reads, and a trickle of writes (POST /api/links every 100 ms).
// It prints /go p50/p99/p99.9 and req/s for both phases, the ratio B/A, the other routes' throughput, latency and
// errors, the server's CPU and peak RSS, and a verdict against the target: /go p99 mixed ≤ 1.5× alone.
//
// Pacing (--pacing schedule, the default): one wrk thread, 50 connections, and a delay() that gives each request the
// next slot of a fixed schedule (luaScheduledDelay in lib.ts); a connection held up by a slow response takes a slot
// already past and goes at once, so the offered rate stays put while the server slows, up to 50 requests in flight.
// (--pacing pause: each connection pauses a fixed delay after each response, connections × 1000 / delay = the target;
// the rate then falls with every slower response, so a phase that slows /go also offers it less: tried first, it
// reached about two thirds of the target alone and an eighth of it beside the dashboard.)
// Either way wrk starts a request's clock when it sends it, so the latencies are service times at the offered load;
// a request that waits at the client for a free connection is not timed, so under stalls the percentiles are, if
// anything, kinder than what an open-loop client would see.
//
// Usage: npm run bench:mixed [-- --seconds 10 --rounds 3 --go-share 0.5 | --go-rate 27000, --links 10000 --pacing schedule|pause]
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun,
  cpuSeconds,
  credentialsFor,
  CRAWLER_AGENTS,
  ensureWrk,
  fmt,
  freePort,
  loadAverage,
  luaList,
  machineBusySeconds,
  luaScheduledDelay,
  median,
  peakRssMb,
  PEOPLE_AGENTS,
  root,
  seedDataDir,
  waitForHttp,
  wrkJsonRun,
  wrkJsonScript,
  type WrkJson,
} from "./lib.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    "go-share": { type: "string", default: "0.5" },
    links: { type: "string", default: "10000" },
    pacing: { type: "string", default: "schedule" },
    // A fixed offered /go rate instead of a share of the maximum: runs on a busy machine, or of two settings, stay comparable.
    "go-rate": { type: "string" },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const goShare = Number(values["go-share"]);
const pacingMode = values.pacing;
if (
  !(seconds > 0) ||
  !(rounds >= 1) ||
  !(goShare > 0 && goShare <= 1) ||
  (pacingMode !== "schedule" && pacingMode !== "pause")
)
  throw new Error("--seconds > 0, --rounds ≥ 1, 0 < --go-share ≤ 1 and --pacing schedule|pause, please");
const MAX_SECONDS = 5;
const MAX_CONNECTIONS = 50;
const PACED_CONNECTIONS = 50;
const LEAD_IN_MS = 1000; // phase B's background load starts this long before the paced /go and ends after it

ensureWrk();
console.log(`seeding ${values.links} links…`);
const { dataDir, paths } = seedDataDir(Number(values.links));
const { cookie, token } = credentialsFor(dataDir, 1);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
  // The bench user writes a link every 100 ms: the abuse brakes (src/safety/limits.ts) would refuse most of them.
  env: {
    ...process.env,
    NODE_ENV: "production",
    AUTH_RATE_LIMIT: "100000",
    NEW_ACCOUNT_LINKS: "0",
    TARGET_HOST_LINKS_PER_HOUR: "0",
  },
  stdout: "ignore",
  stderr: "inherit",
});
// If anything below throws, don't leave the server running.
process.on("exit", () => server.exitCode === null && server.signalCode === null && server.kill("SIGKILL"));
await waitForHttp(`${url}/healthz`);

const goBody = (extra: string) => `
local paths = ${luaList(paths)}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
${extra}
request = function()
  local ua = math.random() < 0.2 and crawlers[math.random(#crawlers)] or people[math.random(#people)]
  return wrk.format("GET", paths[math.random(#paths)], { ["User-Agent"] = ua })
end`;
const goFlatOut = wrkJsonScript(goBody(""));
const dashboard = wrkJsonScript(`
request = function() return wrk.format("GET", "/admin", { ["Cookie"] = "${cookie}" }) end`);
const apiReads = wrkJsonScript(`
local paths = { "/api/links", "/api/links/stats", "/api/subscriptions/active", "/api/links/1/views?days=30" }
request = function() return wrk.format("GET", paths[math.random(#paths)], { ["Authorization"] = "Bearer ${token}" }) end`);
const writes = wrkJsonScript(`
local n = 0
delay = function() return 100 end
request = function()
  n = n + 1
  local body = string.format('{"title":"Bench %d","description":"Written under load","targetUrl":"https://example.com/w/%d"}', n, n)
  return wrk.format("POST", "/api/links", { ["Authorization"] = "Bearer ${token}", ["Content-Type"] = "application/json" }, body)
end`);

const loadAtStart = loadAverage();
console.log(`machine: ${navigator.hardwareConcurrency} cores, load average ${loadAtStart} (1/5/15 min)`);

// Warm up everything (link cache, JIT, the dashboard's queries) before measuring anything.
await Promise.all([
  wrkJsonRun(url, goFlatOut, { seconds: 3, connections: MAX_CONNECTIONS }),
  wrkJsonRun(url, dashboard, { seconds: 3, connections: 2 }),
  wrkJsonRun(url, apiReads, { seconds: 3, connections: 1 }),
]);

// /go's unpaced maximum, alone.
const maxRun = await wrkJsonRun(url, goFlatOut, { seconds: MAX_SECONDS, connections: MAX_CONNECTIONS });
const maxRps = maxRun.requests / maxRun.seconds;
const target = values["go-rate"] ? Number(values["go-rate"]) : maxRps * goShare;
// pause: whole ms (wrk truncates delay()), randomised in [0, 2 × delay] (mean: delay) so connections do not fire in lockstep.
const pauseMs = Math.max(1, Math.round((PACED_CONNECTIONS * 1000) / target));
const offered = pacingMode === "schedule" ? target : (PACED_CONNECTIONS * 1000) / pauseMs;
const goPaced = wrkJsonScript(
  goBody(
    pacingMode === "schedule"
      ? luaScheduledDelay(target)
      : `delay = function() return math.random(0, ${2 * pauseMs}) end`,
  ),
);
const howPaced =
  pacingMode === "schedule"
    ? `one request every ${fmt(1000 / target, 4)} ms on a fixed schedule over ${PACED_CONNECTIONS} connections (${fmt((PACED_CONNECTIONS * 1000) / target, 2)} ms per connection)`
    : `${PACED_CONNECTIONS} connections × 1000 / ${pauseMs} ms pause (nominal: each response's own time lengthens the cycle)`;
console.log(
  `/go unpaced maximum: ${fmt(maxRps)} req/s (${MAX_SECONDS} s, ${MAX_CONNECTIONS} connections, 20 % crawler agents; p50 ${fmt(maxRun.p50, 2)} ms, p99 ${fmt(maxRun.p99, 2)} ms, ${maxRun.errors} errors)
/go paced at ${fmt((target / maxRps) * 100)} % of it: ${fmt(offered)} req/s offered, ${howPaced}
${rounds} rounds × (A: paced /go alone, ${seconds} s | B: paced /go + 2 × GET /admin, 1 × API reads flat out, POST /api/links every 100 ms, ${seconds} s)
`,
);

// cpu: the server's CPU during the paced /go run, in cores; elsewhere: what every other process on the machine
// (other engineers' tests, say) used during the whole phase, in cores: machine busy time − server − this run's wrk.
type Phase = {
  go: WrkJson;
  cpu: number;
  elsewhere: number;
  load: string;
  dash?: WrkJson;
  api?: WrkJson;
  write?: WrkJson;
};
const rps = (r: WrkJson) => r.requests / r.seconds;

async function pacedGo() {
  const before = cpuSeconds(server.pid);
  const go = await wrkJsonRun(url, goPaced, { seconds, connections: PACED_CONNECTIONS });
  return { go, cpu: (cpuSeconds(server.pid) - before) / go.seconds };
}

/** Runs `phase`, and works out how much CPU processes other than the server and its wrk used meanwhile. */
async function measured(phase: () => Promise<Omit<Phase, "elsewhere" | "load"> & { wrkCpu: number }>): Promise<Phase> {
  const [start, machine, serverCpu] = [performance.now(), machineBusySeconds(), cpuSeconds(server.pid)];
  const { wrkCpu, ...result } = await phase();
  const wall = (performance.now() - start) / 1000;
  const elsewhere = (machineBusySeconds() - machine - (cpuSeconds(server.pid) - serverCpu) - wrkCpu) / wall;
  return { ...result, elsewhere: Math.max(0, elsewhere), load: loadAverage() };
}

const phaseA = () =>
  measured(async () => {
    const go = await pacedGo();
    return { ...go, wrkCpu: go.go.cpuSeconds };
  });

const phaseB = () =>
  measured(async () => {
    const background = seconds + (2 * LEAD_IN_MS) / 1000;
    const others = Promise.all([
      wrkJsonRun(url, dashboard, { seconds: background, connections: 2 }),
      wrkJsonRun(url, apiReads, { seconds: background, connections: 1 }),
      wrkJsonRun(url, writes, { seconds: background, connections: 1 }),
    ]);
    await Bun.sleep(LEAD_IN_MS);
    const go = await pacedGo();
    const [dash, api, write] = await others;
    return { ...go, dash, api, write, wrkCpu: go.go.cpuSeconds + dash.cpuSeconds + api.cpuSeconds + write.cpuSeconds };
  });

const ms = (n: number) => fmt(n, 2);
const A: Phase[] = [];
const B: Phase[] = [];
for (let round = 1; round <= rounds; round++) {
  const a = await phaseA();
  const b = await phaseB();
  A.push(a);
  B.push(b);
  console.log(
    `round ${round}: A /go ${fmt(rps(a.go))} req/s p50 ${ms(a.go.p50)} p99 ${ms(a.go.p99)} p99.9 ${ms(a.go.p999)} ms` +
      ` | B /go ${fmt(rps(b.go))} req/s p50 ${ms(b.go.p50)} p99 ${ms(b.go.p99)} p99.9 ${ms(b.go.p999)} ms` +
      ` | B/A p99 ${fmt(b.go.p99 / a.go.p99, 1)}× p99.9 ${fmt(b.go.p999 / a.go.p999, 1)}×` +
      ` | /admin ${fmt(rps(b.dash!))} req/s p99 ${ms(b.dash!.p99)} ms` +
      ` | other processes A ${fmt(a.elsewhere, 2)} B ${fmt(b.elsewhere, 2)} cores, load ${b.load}`,
  );
}
const rss = peakRssMb(server.pid);

server.kill("SIGTERM");
const exited = await Promise.race([server.exited.then(() => true), Bun.sleep(10_000).then(() => false)]);
let stopped: string;
if (exited)
  stopped = `server stopped on SIGTERM (exit code ${server.exitCode}${server.signalCode ? `, signal ${server.signalCode}` : ""})`;
else {
  server.kill("SIGKILL");
  await server.exited;
  stopped = "server did NOT exit within 10 s of SIGTERM (killed with SIGKILL)";
  process.exitCode = 1;
}

// Summaries: the median over rounds (a round this shared machine slowed moves it little); requests and errors summed.
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const row = (name: string, runs: WrkJson[], cpu?: number[]) =>
  `${name.padEnd(22)} ${fmt(sum(runs.map((r) => r.requests))).padStart(9)} ${fmt(median(runs.map(rps))).padStart(8)} ${ms(median(runs.map((r) => r.p50))).padStart(8)} ${ms(median(runs.map((r) => r.p99))).padStart(8)} ${ms(median(runs.map((r) => r.p999))).padStart(9)} ${String(sum(runs.map((r) => r.errors))).padStart(7)}` +
  (cpu ? `   ${fmt(100 * median(cpu)).padStart(4)} % of one core` : "");
const p99Ratios = B.map((b, i) => b.go.p99 / A[i]!.go.p99);
const p999Ratios = B.map((b, i) => b.go.p999 / A[i]!.go.p999);
const p99Ratio = median(p99Ratios);
const dashRps = median(B.map((b) => rps(b.dash!)));
// Below the offered rate /go was saturated (more requests waiting at the client than connections to send them),
// and its latencies understate: the target is met only when B held the offered rate too.
const bHeld = median(B.map((p) => rps(p.go))) / offered;
const verdict =
  p99Ratio <= 1.5 && bHeld >= 0.95
    ? `met (ratio ${fmt(p99Ratio, 2)})`
    : `not met (ratio ${fmt(p99Ratio, 2)}${bHeld < 0.95 ? `; /go mixed got ${fmt(100 * bHeld)} % of its offered rate: saturated` : ""})`;
const short = [...A.map((p, i) => [`A${i + 1}`, p] as const), ...B.map((p, i) => [`B${i + 1}`, p] as const)].filter(
  ([, p]) => rps(p.go) < 0.95 * offered,
);
const shortfall = short.length
  ? `\nWARNING: /go got under 95 % of the offered rate in ${short.map(([n, p]) => `${n} (${fmt((100 * rps(p.go)) / offered)} %)`).join(", ")}: not a fixed offered load there`
  : "";

console.log(`
mixed load: ${paths.length} links, /go paced at ${fmt(offered)} req/s offered (${fmt((target / maxRps) * 100)} % of its ${fmt(maxRps)} req/s maximum), ${rounds} × ${seconds} s per phase
(median over rounds; requests and errors summed)
phase / route           requests    req/s   p50 ms   p99 ms  p99.9 ms  errors   server CPU (during /go)
${row(
  "A  /go alone",
  A.map((p) => p.go),
  A.map((p) => p.cpu),
)}
${row(
  "B  /go mixed",
  B.map((p) => p.go),
  B.map((p) => p.cpu),
)}
${row(
  "B  GET /admin",
  B.map((p) => p.dash!),
)}
${row(
  "B  API reads",
  B.map((p) => p.api!),
)}
${row(
  "B  POST /api/links",
  B.map((p) => p.write!),
)}
(B's other routes run ${fmt((2 * LEAD_IN_MS) / 1000)} s longer than its /go, starting before it and ending after it)

/go p99   B/A per round ${p99Ratios.map((r) => fmt(r, 1)).join(", ")}; median ${fmt(p99Ratio, 1)}×
/go p99.9 B/A per round ${p999Ratios.map((r) => fmt(r, 1)).join(", ")}; median ${fmt(median(p999Ratios), 1)}×
/go achieved: ${fmt(median(A.map((p) => rps(p.go))))} req/s alone, ${fmt(median(B.map((p) => rps(p.go))))} req/s mixed (offered ${fmt(offered)}, --pacing ${pacingMode})${shortfall}
peak RSS of the server: ${fmt(rss, 0)} MB; server CPU in cores (during /go): A ${fmt(median(A.map((p) => p.cpu)), 2)}, B ${fmt(median(B.map((p) => p.cpu)), 2)}
machine: ${navigator.hardwareConcurrency} cores; other processes (not the server, not this run's wrk) used A ${fmt(median(A.map((p) => p.elsewhere)), 2)}, B ${fmt(median(B.map((p) => p.elsewhere)), 2)} cores (median); load average at the start ${loadAtStart}, at the end ${loadAverage()}
${stopped}

target: /go p99 mixed ≤ 1.5× alone — ${verdict}
dashboard throughput under the mixed load: ${fmt(dashRps)} req/s (GET /admin, 2 connections; must not drop below today's)`);
