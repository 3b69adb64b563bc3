// The dashboard and the paged link API for a user with few links against one with many, in one run on one server:
// user 1 holds `--few` links (20), user 2 `--many` (10,000), each link with `--days` days of rollups (people every
// day, a crawler platform every third day), so that the totals, "most viewed" and the platforms read real rows.
//
// For each page it prints requests per second on one connection (a user clicking, not a load test), p50 and p99,
// and the server's CPU per request (every thread of the process, from /proc): on a shared machine CPU per request and
// the many/few ratio within this run are the figures to read, not the throughput. The target: many ≤ 2× few.
//
// Usage: npm run bench:dashboard [-- --few 20 --many 10000 --days 30 --seconds 5]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bun, cpuSeconds, credentialsFor, fmt, freePort, loadAverage, root, seedDataDir, waitForHttp } from "./lib.ts";

const { values } = parseArgs({
  options: {
    few: { type: "string", default: "20" },
    many: { type: "string", default: "10000" },
    days: { type: "string", default: "30" },
    seconds: { type: "string", default: "5" },
  },
});
const few = Number(values.few);
const many = Number(values.many);
const days = Number(values.days);
const seconds = Number(values.seconds);

console.log(`seeding user 1 with ${few} links and user 2 with ${many}, ${days} days of rollups each…`);
// seedDataDir spreads links over users round-robin; give it two users and move the surplus to user 2.
const { dataDir } = seedDataDir(few * 2, 2);
const sqlite = new Database(join(dataDir, "linkprev.db"));
sqlite.transaction(() => {
  const addLink = sqlite.query(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description, image_url, created_at) VALUES (2, (SELECT id FROM workspaces WHERE personal_user_id = 2), ?, ?, ?, ?, '/uploads/x.webp', ?)",
  );
  for (let l = few; l < many; l++)
    addLink.run(
      `m${l}`,
      `https://example.com/many/${l}`,
      `Many ${l}`,
      `Description ${l}`,
      Date.now() - (many - l) * 60_000,
    );
  const addRollup = sqlite.query(
    "INSERT INTO view_rollups (link_id, day, platform, human, bot, scans, unique_humans) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const linkIds = sqlite.query<{ id: number }, []>("SELECT id FROM links").all();
  for (let d = 0; d < days; d++) {
    const day = new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
    for (const { id } of linkIds) {
      addRollup.run(id, day, "", (id * 7 + d) % 13, 0, d % 3, (id + d) % 9);
      if (d % 3 === 0) addRollup.run(id, day, "slack", 0, 1 + (id % 4), 0, 0);
    }
  }
})();
const rowsOf = (table: string) => sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${table}`).get()!.n;
console.log(`links: ${rowsOf("links")}; rollup rows: ${rowsOf("view_rollups")}`);
sqlite.close();
const fewUser = credentialsFor(dataDir, 1);
const manyUser = credentialsFor(dataDir, 2);
for (const userId of [1, 2]) {
  const db = new Database(join(dataDir, "linkprev.db"));
  db.run(
    "INSERT INTO subscriptions (user_id, workspace_id, stripe_subscription_id, status, plan_id) SELECT ?1, id, ?2, 'active', 'enterprise' FROM workspaces WHERE personal_user_id = ?1",
    [userId, `sub_bench_${userId}`],
  );
  db.close();
}

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
  env: { ...process.env, NODE_ENV: "production", AUTH_RATE_LIMIT: "100000" },
  stdout: "ignore",
  stderr: "inherit",
});
process.on("exit", () => server.exitCode === null && server.signalCode === null && server.kill("SIGKILL"));
await waitForHttp(`${url}/healthz`);
console.log(`machine: ${navigator.hardwareConcurrency} cores, load average ${loadAverage()} (1/5/15 min)`);

type Result = { rps: number; p50: number; p99: number; cpuMs: number; bytes: number };

/** One connection, one request after another, for `seconds`. */
async function measure(path: string, who: { cookie: string; token: string }, secondsToRun: number): Promise<Result> {
  const headers: Record<string, string> = path.startsWith("/api/")
    ? { authorization: `Bearer ${who.token}` }
    : { cookie: who.cookie };
  const times: number[] = [];
  let bytes = 0;
  const cpuBefore = cpuSeconds(server.pid);
  const end = performance.now() + secondsToRun * 1000;
  while (performance.now() < end) {
    const start = performance.now();
    const response = await fetch(`${url}${path}`, { headers, redirect: "manual" });
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
    bytes = (await response.arrayBuffer()).byteLength;
    times.push(performance.now() - start);
  }
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  times.sort((a, b) => a - b);
  return {
    rps: times.length / secondsToRun,
    p50: times[Math.floor(times.length / 2)]!,
    p99: times[Math.floor(times.length * 0.99)]!,
    cpuMs: (cpu * 1000) / times.length,
    bytes,
  };
}

const PAGES = [
  "/admin",
  "/admin?sort=views",
  "/admin?q=5",
  "/admin?q=5+many",
  "/admin?q=description+many+5&sort=views",
  "/admin?page=3",
  "/api/links?limit=50",
  "/api/links?limit=50&sort=views",
  "/api/links?limit=50&q=7",
];
// Warm up (JIT, statement caches, the page's assets) on both users.
for (const path of PAGES) {
  await measure(path, fewUser, 0.3);
  await measure(path, manyUser, 0.3);
}
const line = (r: Result) =>
  `${fmt(r.rps).padStart(5)} req/s  p50 ${fmt(r.p50, 2).padStart(6)} ms  p99 ${fmt(r.p99, 2).padStart(6)} ms  CPU ${fmt(r.cpuMs, 2).padStart(6)} ms/req  ${fmt(r.bytes / 1024, 1)} KB`;
console.log(
  `\nper page: ${few} links, then ${many} links (one connection, ${seconds} s each; CPU is the whole server process)`,
);
let worst = 0;
for (const path of PAGES) {
  const a = await measure(path, fewUser, seconds);
  const b = await measure(path, manyUser, seconds);
  const ratio = b.cpuMs / a.cpuMs;
  worst = Math.max(worst, ratio);
  console.log(
    `${path}\n  ${String(few).padStart(6)}: ${line(a)}\n  ${String(many).padStart(6)}: ${line(b)}\n  CPU per request ×${fmt(ratio, 2)}, p50 ×${fmt(b.p50 / a.p50, 2)}`,
  );
}
console.log(`\nworst CPU-per-request ratio ${fmt(worst, 2)} (target ≤ 2): ${worst <= 2 ? "met" : "NOT met"}`);
server.kill("SIGTERM");
await server.exited;
