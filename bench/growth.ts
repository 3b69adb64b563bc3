// How /go and the dashboard hold up as data grows: 10,000 vs 1,000,000 links (and 0 vs 1,000,000 stored views) at
// default settings (the link cache's default memory budget). /go's requests follow Zipf's law (s ≈ 1) over all the
// links, 20 % of them crawlers, and the links' past views (link_totals) follow the same law: popular links were
// popular before. The dashboard reads the rollups, never the views table, so neither should slow down; /go at a
// million links should stay within 15 % of ten thousand.
// Fair by construction: every size's server is started (one at a time) and measured only once its link cache has
// finished filling (linkprev_link_cache_filling) and a warm-up of the same mix has run (15 s: a million links'
// first seconds render crawler pages and write the day's first rollup rows and visitor hashes for most links they
// see, docs/decisions/0040); then the sizes are measured in alternating rounds (A B, B A, …: an even number, so
// that drift favours no size's median) while all stay up, and the medians are compared. Prints start-up (spawn to
// the first /go answered, and to the fill done), resident memory and the cache's figures.
// `--cache-mb N` sets LINK_CACHE_MB instead (e.g. every link held, to tell the cost of misses from the cost of size).
// Usage: npm run bench:growth [-- --seconds 5 --rounds 4 --warmup 15 --sizes 10000,1000000 --views 0,1000000 --cache-mb 4000]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun,
  cpuPerRequest,
  credentialsFor,
  CRAWLER_AGENTS,
  ensureWrk,
  fmt,
  freePort,
  loadAverage,
  luaList,
  luaZipfPaths,
  median,
  peakRssMb,
  PEOPLE_AGENTS,
  root,
  rssMb,
  scrapeMetrics,
  seedDataDir,
  threadCpuSeconds,
  wrkAsync,
  wrkJsonScript,
} from "./lib.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "5" },
    rounds: { type: "string", default: "4" },
    warmup: { type: "string", default: "15" },
    sizes: { type: "string", default: "10000,1000000" },
    views: { type: "string", default: "0,1000000" },
    "cache-mb": { type: "string" },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const warmupSeconds = Number(values.warmup);
const sizes = values.sizes.split(",").map(Number);
const viewCounts = values.views.split(",").map(Number);
ensureWrk();

/** The link that luaZipfPaths draws at rank r (1-based), as a path. */
const zipfRankPath = (r: number, links: number, users: number) => {
  const link = ((r - 1) * 999_983) % links;
  return `/go/u${link % users}/l${link}`;
};

/** Gives the links past views by the same Zipf law as the requests (link_totals, what the dashboard and the cache's fill read). */
function addZipfHistory(dataDir: string, paths: string[], links: number, users: number) {
  const idOf = new Map(paths.map((path, i) => [path, i + 1])); // seedDataDir inserts the links in this order
  const sqlite = new Database(join(dataDir, "linkprev.db"));
  const upsert = sqlite.query(
    "INSERT INTO link_totals (link_id, user_id, human) SELECT id, user_id, ?2 FROM links WHERE id = ?1 ON CONFLICT (link_id) DO UPDATE SET human = excluded.human",
  );
  sqlite.transaction(() => {
    for (let r = 1; r <= links; r++) upsert.run(idOf.get(zipfRankPath(r, links, users))!, Math.ceil(10_000_000 / r));
  })();
  sqlite.close();
}

/** Stores `count` views spread over the links and the last 30 days; the server folds them into the rollups at start. */
function addViews(dataDir: string, count: number) {
  const sqlite = new Database(join(dataDir, "linkprev.db"));
  const links = sqlite.query<{ id: number; userId: number }, []>("SELECT id, user_id AS userId FROM links").all();
  sqlite.run("INSERT INTO user_agents (id, text) VALUES (1, 'Mozilla/5.0'), (2, 'Twitterbot/1.0')");
  const insert = sqlite.query(
    "INSERT INTO views (user_id, link_id, ip, user_agent_id, is_bot, platform, timestamp) VALUES (?, ?, '203.0.113.0', ?, ?, ?, ?)",
  );
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
// The link cache at its defaults (or --cache-mb), whatever this shell sets.
const { LINK_CACHE_MB: _mb, LINK_CACHE_SIZE: _size, ...inherited } = process.env;
const cacheMb = values["cache-mb"];
const defaultEnv = {
  ...inherited,
  NODE_ENV: "production",
  METRICS_TOKEN,
  LOG_FORMAT: "off",
  ...(cacheMb ? { LINK_CACHE_MB: cacheMb } : {}),
};

type Server = {
  links: number;
  users: number;
  url: string;
  process: Bun.Subprocess;
  cookie: string;
  goScript: string;
  seedS: number;
  startS: number;
  filledS: number;
  filledRss: number;
};
type Round = { rps: number; p99: number; cpu: { request: number; writer: number; other: number } };

/** Seeds a data directory, starts a server on it and waits for its first /go answer and for its cache's fill. */
async function start(links: number, views: number): Promise<Server> {
  const seeding = performance.now();
  const users = Math.max(10, links / 100);
  const { dataDir, paths } = seedDataDir(links, users);
  addZipfHistory(dataDir, paths, links, users);
  if (views) addViews(dataDir, views);
  const seedS = (performance.now() - seeding) / 1000;
  const { cookie } = credentialsFor(dataDir, 1);
  const url = `http://127.0.0.1:${await freePort()}`;
  const starting = performance.now();
  const server = Bun.spawn(
    [bun, join(root, "cli/linkprev.ts"), "serve", "--port", url.split(":")[2]!, "--data", dataDir],
    { env: defaultEnv, stdout: "inherit", stderr: "inherit" },
  );
  const sinceStart = () => (performance.now() - starting) / 1000;
  for (; ; await Bun.sleep(20)) {
    const status = await fetch(`${url}${zipfRankPath(1, links, users)}`, {
      redirect: "manual",
      headers: { "user-agent": PEOPLE_AGENTS[0]! },
    }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 302) break;
    if (sinceStart() > 300) throw new Error(`${url}: no /go answer after 300 s`);
  }
  const startS = sinceStart();
  while ((await scrapeMetrics(url, METRICS_TOKEN)).linkprev_link_cache_filling !== 0) await Bun.sleep(100);
  const filledS = sinceStart();
  const goScript = wrkJsonScript(`${luaZipfPaths(links, users)}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
request = function()
  local ua = math.random() < 0.2 and crawlers[math.random(#crawlers)] or people[math.random(#people)]
  return wrk.format("GET", zipfPath(), { ["User-Agent"] = ua })
end`);
  return { links, users, url, process: server, cookie, goScript, seedS, startS, filledS, filledRss: rssMb(server.pid) };
}

async function measureGo(server: Server): Promise<Round> {
  const before = threadCpuSeconds(server.process.pid);
  const go = await wrkAsync(server.url, server.goScript, seconds, 50, 2);
  return {
    rps: go.requests / go.seconds,
    p99: go.p99,
    cpu: cpuPerRequest(server.process.pid, before, threadCpuSeconds(server.process.pid), go.requests),
  };
}

const MB = 2 ** 20;
const cost = (r: Round) => r.cpu.request + r.cpu.writer;
const loads = [loadAverage()];
for (const views of viewCounts) {
  const servers: Server[] = [];
  for (const links of sizes) servers.push(await start(links, views));
  for (const server of servers) await wrkAsync(server.url, server.goScript, warmupSeconds, 50, 2);
  const measured = new Map<Server, Round[]>(servers.map((s) => [s, []]));
  for (let round = 0; round < rounds; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse())
      measured.get(server)!.push(await measureGo(server));
  }
  loads.push(loadAverage());
  console.log(`
${fmt(views)} stored views. /go: Zipf (s = 1) over all links, 20 % crawlers, 50 connections, ${rounds} alternating rounds of ${seconds} s (median); /admin: 1 connection. ${cacheMb ? `LINK_CACHE_MB=${cacheMb}` : "Default LINK_CACHE_MB"}.
    links  seed s  first /go s  filled s  /go req/s (rounds)          p99 ms  µs/req: thread writer other  /admin req/s  p99 ms  RSS MB: filled  end  peak  cache MB  filter MB  held links  hit %  evictions  unknown reads`);
  const medians = new Map<Server, { rps: number; cost: number }>();
  for (const server of servers) {
    const runs = measured.get(server)!;
    const dashboard = await wrkAsync(
      server.url,
      wrkJsonScript(`request = function() return wrk.format("GET", "/admin", { ["Cookie"] = "${server.cookie}" }) end`),
      seconds,
      1,
    );
    const m = await scrapeMetrics(server.url, METRICS_TOKEN);
    const [hits, misses] = [m.linkprev_link_cache_hits_total ?? 0, m.linkprev_link_cache_misses_total ?? 0];
    const row = { rps: median(runs.map((r) => r.rps)), cost: median(runs.map(cost)) };
    medians.set(server, row);
    console.log(
      `${fmt(server.links).padStart(9)}  ${fmt(server.seedS, 1).padStart(6)}  ${fmt(server.startS, 2).padStart(11)}  ${fmt(server.filledS, 1).padStart(8)}  ${fmt(row.rps).padStart(9)} (${runs.map((r) => fmt(r.rps)).join(", ")})`.padEnd(
        80,
      ) +
        `${fmt(median(runs.map((r) => r.p99)), 2).padStart(6)}  ${fmt(median(runs.map((r) => r.cpu.request)), 1).padStart(14)} ${fmt(median(runs.map((r) => r.cpu.writer)), 1).padStart(6)} ${fmt(median(runs.map((r) => r.cpu.other)), 1).padStart(5)}  ${fmt(dashboard.requests / dashboard.seconds).padStart(12)}  ${fmt(dashboard.p99, 2).padStart(6)}  ${fmt(server.filledRss).padStart(14)}  ${fmt(rssMb(server.process.pid)).padStart(4)}  ${fmt(peakRssMb(server.process.pid)).padStart(4)}  ${fmt((m.linkprev_link_cache_bytes ?? 0) / MB, 1).padStart(8)}  ${fmt((m.linkprev_link_cache_filter_bytes ?? 0) / MB, 1).padStart(9)}  ${fmt(m.linkprev_link_cache_entries ?? 0).padStart(10)}  ${fmt((100 * hits) / Math.max(1, hits + misses), 1).padStart(5)}  ${fmt(m.linkprev_link_cache_evictions_total ?? 0).padStart(9)}  ${fmt(m.linkprev_link_cache_unknown_reads_total ?? 0).padStart(13)}`,
    );
  }
  const [small, large] = [servers[0]!, servers.at(-1)!].map((s) => medians.get(s)!);
  if (servers.length > 1) {
    console.log(
      `/go at ${fmt(servers.at(-1)!.links)} links is ${fmt(large!.rps / small!.rps, 3)} of ${fmt(servers[0]!.links)} in req/s, ${fmt(small!.cost / large!.cost, 3)} in CPU per request (thread + writer; target ≥ 0.85)`,
    );
  }
  for (const server of servers) {
    server.process.kill("SIGTERM");
    await server.process.exited;
  }
}
console.log(`load average (1, 5, 15 min) at start and after each set of rounds: ${loads.join(" → ")}`);
