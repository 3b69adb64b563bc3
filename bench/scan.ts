// Popular links under a flood of unknown addresses: two equal loads side by side (two wrk processes, the same
// connections each). First both ask for popular links; then one asks for random unknown addresses instead (someone
// guessing short URLs). The popular load's throughput with the flood should stay within 15 % of without it, the
// flood should cost no database reads, evict no live link and grow no memory past the link cache's budget.
// With --against REF the same runs are made on another commit first (its own checkout), for a before/after.
// Usage: npm run bench:scan [-- --against main --seconds 10 --links 10000 --popular 1000 --connections 25]
import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun,
  checkoutRef,
  ensureWrk,
  fmt,
  freePort,
  luaList,
  PEOPLE_AGENTS,
  root,
  rssMb,
  scrapeMetrics,
  seedDataDir,
  waitForHttp,
  wrkJsonScript,
} from "./lib.ts";

const { values } = parseArgs({
  options: {
    against: { type: "string" },
    seconds: { type: "string", default: "10" },
    links: { type: "string", default: "10000" },
    popular: { type: "string", default: "1000" },
    connections: { type: "string", default: "25" },
  },
});
const seconds = Number(values.seconds);
const links = Number(values.links);
const popular = Number(values.popular);
const connections = Number(values.connections);
ensureWrk();

const METRICS_TOKEN = "bench-metrics-token-0123456789";

/** A script whose requests go to the popular paths, or with `random` to a new unknown address each; done() prints the answers by kind. */
function loadScript(paths: string[], random: boolean): string {
  return wrkJsonScript(
    `local paths = ${luaList(paths)}
local people = ${luaList(PEOPLE_AGENTS)}
local threads = {}
setup = function(thread) table.insert(threads, thread) end
init = function() found = 0; missing = 0 end
request = function()
  if ${random} then
    return wrk.format("GET", "/go/u" .. math.random(0, 99) .. "/guess" .. math.random(1, 1000000000), { ["User-Agent"] = people[math.random(#people)] })
  end
  return wrk.format("GET", paths[math.random(#paths)], { ["User-Agent"] = people[math.random(#people)] })
end
response = function(status) if status == 302 or status == 200 then found = found + 1 elseif status == 404 then missing = missing + 1 end end`,
    `local f, m = 0, 0
  for _, t in ipairs(threads) do f = f + t:get("found"); m = m + t:get("missing") end
  io.write(string.format('SCANJSON {"found":%d,"missing":%d,"seconds":%f}\\n', f, m, summary.duration / 1e6))`,
  );
}

type Load = { found: number; missing: number; p99: number };

async function run(url: string, script: string, duration: number): Promise<Load> {
  const child = Bun.spawn(["wrk", "-t1", `-c${connections}`, `-d${duration}s`, "--latency", "-s", script, url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out] = await Promise.all([new Response(child.stdout).text(), child.exited]);
  const counts = out.split("\n").find((l) => l.startsWith("SCANJSON "));
  const summary = out.split("\n").find((l) => l.startsWith("WRKJSON "));
  if (!counts || !summary) throw new Error(`wrk printed no summary:\n${out}`);
  const c = JSON.parse(counts.slice(9)) as { found: number; missing: number; seconds: number };
  return {
    found: c.found / c.seconds,
    missing: c.missing / c.seconds,
    p99: (JSON.parse(summary.slice(8)) as { p99: number }).p99,
  };
}

type Row = { build: string; mode: string; popular: Load; other: Load; rss: number; m: Record<string, number> };

async function measure(build: string, tree: string, migrate?: (sqlite: Database) => void): Promise<Row[]> {
  const { dataDir, paths } = seedDataDir(links, 100, migrate);
  const hot = paths.slice(0, popular);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Default cache settings, whatever this shell sets (an older build reads LINK_CACHE_SIZE: every link fits it).
  const { LINK_CACHE_MB: _mb, LINK_CACHE_SIZE: _size, ...inherited } = process.env;
  const server = Bun.spawn([bun, join(tree, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
    env: {
      ...inherited,
      NODE_ENV: "production",
      METRICS_TOKEN,
      LOG_FORMAT: "off",
      ...(tree === root ? {} : { LINK_CACHE_SIZE: String(links) }),
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  await waitForHttp(`${url}/healthz`);
  const rows: Row[] = [];
  const popularScript = loadScript(hot, false);
  const floodScript = loadScript(hot, true);
  try {
    await Promise.all([run(url, popularScript, 2), run(url, popularScript, 2)]); // warm-up
    for (const [mode, other] of [
      ["both popular", popularScript],
      ["one floods", floodScript],
    ] as const) {
      const [p, o] = await Promise.all([run(url, popularScript, seconds), run(url, other, seconds)]);
      rows.push({
        build,
        mode,
        popular: p,
        other: o,
        rss: rssMb(server.pid),
        m: await scrapeMetrics(url, METRICS_TOKEN).catch(() => ({})),
      });
    }
  } finally {
    server.kill("SIGTERM");
    await server.exited;
  }
  return rows;
}

const rows: Row[] = [];
if (values.against) {
  const base = await checkoutRef(values.against);
  rows.push(...(await measure(`${values.against} (${base.commit.slice(0, 10)})`, base.tree, base.migrate)));
}
rows.push(...(await measure("this checkout", root)));
const MB = 2 ** 20;
console.log(`
${fmt(links)} links, ${fmt(popular)} popular; two loads of ${connections} connections side by side, ${seconds} s per run; default cache settings (older builds: LINK_CACHE_SIZE ${fmt(links)})
build                      loads          popular 302/s  p99 ms   other 302/s  other 404/s  p99 ms   RSS MB  cache MB  evictions  db reads  unknown reads  filtered`);
for (const r of rows) {
  const num = (name: string) => (r.m[name] === undefined ? "-" : fmt(r.m[name]!));
  console.log(
    `${r.build.padEnd(26)} ${r.mode.padEnd(14)} ${fmt(r.popular.found).padStart(13)}  ${fmt(r.popular.p99, 2).padStart(6)}  ${fmt(r.other.found).padStart(12)}  ${fmt(r.other.missing).padStart(11)}  ${fmt(r.other.p99, 2).padStart(6)}  ${fmt(r.rss).padStart(7)}  ${(r.m.linkprev_link_cache_bytes === undefined ? "-" : fmt(r.m.linkprev_link_cache_bytes / MB, 1)).padStart(8)}  ${num("linkprev_link_cache_evictions_total").padStart(9)}  ${num("linkprev_link_cache_misses_total").padStart(8)}  ${num("linkprev_link_cache_unknown_reads_total").padStart(13)}  ${num("linkprev_link_cache_filtered_total").padStart(8)}`,
  );
}
for (const build of new Set(rows.map((r) => r.build))) {
  const [alone, flooded] = ["both popular", "one floods"].map(
    (mode) => rows.find((r) => r.build === build && r.mode === mode)!,
  );
  console.log(
    `${build}: the popular load with the flood beside it is ${fmt(flooded!.popular.found / alone!.popular.found, 3)} of its throughput without (target ≥ 0.85)`,
  );
}
