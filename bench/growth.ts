// How /go and the dashboard hold up as data grows: 10,000 vs 1,000,000 links and 0 vs 1,000,000 stored views, at
// default settings (the link cache's default memory budget). /go's requests follow Zipf's law (s ≈ 1) over all
// the links, 20 % of them crawlers. The dashboard reads the rollups, never the views table, so neither should slow
// down; /go at a million links should stay within 15 % of ten thousand. Prints start-up time (spawn to /healthz)
// and the time until the link cache is filled (it goes on in the background), resident memory and the cache's figures.
// Usage: npm run bench:growth [-- --seconds 5 --sizes 10000,1000000 --views 0,1000000]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun, cpuPerRequest, credentialsFor, CRAWLER_AGENTS, ensureWrk, fmt, freePort, luaList, luaZipfPaths, peakRssMb, PEOPLE_AGENTS, root, rssMb, scrapeMetrics, seedDataDir, threadCpuSeconds, waitForHttp, wrkAsync, wrkJsonScript,
} from "./lib.ts";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "5" }, sizes: { type: "string", default: "10000,1000000" }, views: { type: "string", default: "0,1000000" } },
});
const seconds = Number(values.seconds);
const sizes = values.sizes.split(",").map(Number);
const viewCounts = values.views.split(",").map(Number);
ensureWrk();

/** Stores `count` views spread over the links and the last 30 days; the server folds them into the rollups at start. */
function addViews(dataDir: string, count: number) {
  const sqlite = new Database(join(dataDir, "linkprev.db"));
  const links = sqlite.query<{ id: number; userId: number }, []>("SELECT id, user_id AS userId FROM links").all();
  sqlite.run("INSERT INTO user_agents (id, text) VALUES (1, 'Mozilla/5.0'), (2, 'Twitterbot/1.0')");
  const insert = sqlite.query("INSERT INTO views (user_id, link_id, ip, user_agent_id, is_bot, platform, timestamp) VALUES (?, ?, '203.0.113.0', ?, ?, ?, ?)");
  const now = Date.now();
  sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      const link = links[i % links.length]!;
      const bot = i % 4 === 0;
      insert.run(link.userId, link.id, bot ? 2 : 1, bot ? 1 : 0, bot ? "x" : null, now - (i % 30) * 86_400_000);
    }
  })();
  sqlite.close();
}

const METRICS_TOKEN = "bench-metrics-token-0123456789";
// The link cache at its defaults, whatever this shell sets.
const { LINK_CACHE_MB: _mb, LINK_CACHE_SIZE: _size, ...inherited } = process.env;
const defaultEnv = { ...inherited, NODE_ENV: "production", METRICS_TOKEN, LOG_FORMAT: "off" };
type Row = { cpu: { request: number; writer: number }; links: number; views: number; seedS: number; startS: number; filledS: number; go: number; goP99: number; admin: number; adminP50: number; adminP99: number; rss: number; peak: number; m: Record<string, number> };
const rows: Row[] = [];
for (const views of viewCounts) {
  for (const links of sizes) {
    const seeding = performance.now();
    const users = Math.max(10, links / 100);
    const { dataDir } = seedDataDir(links, users);
    if (views) addViews(dataDir, views);
    const seedS = (performance.now() - seeding) / 1000;
    const { cookie } = credentialsFor(dataDir, 1);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const starting = performance.now();
    const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
      env: defaultEnv,
      stdout: "inherit",
      stderr: "inherit",
    });
    await waitForHttp(`${url}/healthz`, 120_000);
    const startS = (performance.now() - starting) / 1000;
    // The cache fills in the background after start: measure once it holds what it will.
    for (let held = -1; ; await Bun.sleep(500)) {
      const now = (await scrapeMetrics(url, METRICS_TOKEN)).linkprev_link_cache_entries ?? 0;
      if (now === held) break;
      held = now;
    }
    const filledS = (performance.now() - starting) / 1000 - 0.5;
    const goScript = wrkJsonScript(`${luaZipfPaths(links, users)}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
request = function()
  local ua = math.random() < 0.2 and crawlers[math.random(#crawlers)] or people[math.random(#people)]
  return wrk.format("GET", zipfPath(), { ["User-Agent"] = ua })
end`);
    await wrkAsync(url, goScript, 2, 50, 2); // warm-up: the cache fills with what the mix asks for
    const cpuBefore = threadCpuSeconds(server.pid);
    const go = await wrkAsync(url, goScript, seconds, 50, 2);
    const cpu = cpuPerRequest(server.pid, cpuBefore, threadCpuSeconds(server.pid), go.requests);
    const dashboard = await wrkAsync(url, wrkJsonScript(`request = function() return wrk.format("GET", "/admin", { ["Cookie"] = "${cookie}" }) end`), seconds, 1);
    const m = await scrapeMetrics(url, METRICS_TOKEN);
    const rss = rssMb(server.pid);
    const peak = peakRssMb(server.pid);
    server.kill("SIGTERM");
    await server.exited;
    rows.push({ links, views, seedS, startS, filledS, cpu, go: go.requests / go.seconds, goP99: go.p99, admin: dashboard.requests / dashboard.seconds, adminP50: dashboard.p50, adminP99: dashboard.p99, rss, peak, m });
  }
}
const MB = 2 ** 20;
console.log(`
/go: Zipf (s = 1) over all links, 20 % crawlers, 50 connections; /admin: 1 connection (its user's links). Default LINK_CACHE_MB.
    links      views  seed s  start s  filled s  /go req/s  p99 ms  µs/req: thread writer  /admin req/s  p50 ms  p99 ms  RSS MB  peak MB  cache MB  filter MB  held links  hit %  evictions  unknown reads`);
for (const r of rows) {
  const hits = r.m.linkprev_link_cache_hits_total ?? 0;
  const misses = r.m.linkprev_link_cache_misses_total ?? 0;
  console.log(
    `${fmt(r.links).padStart(9)}  ${fmt(r.views).padStart(9)}  ${fmt(r.seedS, 1).padStart(6)}  ${fmt(r.startS, 2).padStart(7)}  ${fmt(r.filledS, 1).padStart(8)}  ${fmt(r.go).padStart(9)}  ${fmt(r.goP99, 2).padStart(6)}  ${fmt(r.cpu.request, 1).padStart(14)} ${fmt(r.cpu.writer, 1).padStart(6)}  ${fmt(r.admin).padStart(12)}  ${fmt(r.adminP50, 2).padStart(6)}  ${fmt(r.adminP99, 2).padStart(6)}  ${fmt(r.rss).padStart(6)}  ${fmt(r.peak).padStart(7)}  ${fmt((r.m.linkprev_link_cache_bytes ?? 0) / MB, 1).padStart(8)}  ${fmt((r.m.linkprev_link_cache_filter_bytes ?? 0) / MB, 1).padStart(9)}  ${fmt(r.m.linkprev_link_cache_entries ?? 0).padStart(10)}  ${fmt((100 * hits) / Math.max(1, hits + misses), 1).padStart(5)}  ${fmt(r.m.linkprev_link_cache_evictions_total ?? 0).padStart(9)}  ${fmt(r.m.linkprev_link_cache_unknown_reads_total ?? 0).padStart(13)}`,
  );
}
for (const views of viewCounts) {
  const [small, large] = [sizes[0], sizes.at(-1)].map((links) => rows.find((r) => r.links === links && r.views === views)!);
  if (small && large && small !== large) {
    // Runs minutes apart on a shared machine drift; the CPU per request of the two busy threads does not.
    const cost = (r: Row) => r.cpu.request + r.cpu.writer;
    console.log(`${fmt(views)} views: /go at ${fmt(large.links)} links is ${fmt(large.go / small.go, 3)} of ${fmt(small.links)} in req/s, ${fmt(cost(small) / cost(large), 3)} in CPU per request (target ≥ 0.85)`);
  }
}
