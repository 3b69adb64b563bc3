// Popular links under a scan: /go throughput on a few popular links, alone and while half the requests are random
// unknown addresses (someone guessing short URLs). A miss must not push the popular links out of the link cache.
// With --against REF the same runs are made on another commit first (its own checkout), for a before/after.
// Usage: npm run bench:scan [-- --against main --seconds 10 --links 10000 --popular 1000 --connections 50]
import type { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bun, checkoutRef, ensureWrk, fmt, freePort, luaList, PEOPLE_AGENTS, root, seedDataDir, waitForHttp, wrkJsonScript } from "./lib.ts";

const { values } = parseArgs({
  options: {
    against: { type: "string" },
    seconds: { type: "string", default: "10" },
    links: { type: "string", default: "10000" },
    popular: { type: "string", default: "1000" },
    connections: { type: "string", default: "50" },
  },
});
const seconds = Number(values.seconds);
const links = Number(values.links);
const popular = Number(values.popular);
const connections = Number(values.connections);
ensureWrk();

/**
 * A script whose requests go to the popular paths, and with `randomShare` to a new unknown address each; done()
 * also counts the answers by kind (each wrk thread counts its own, added up through setup()'s thread list).
 */
function scanScript(paths: string[], randomShare: number): string {
  return wrkJsonScript(`local paths = ${luaList(paths)}
local people = ${luaList(PEOPLE_AGENTS)}
local threads = {}
setup = function(thread) table.insert(threads, thread) end
init = function() found = 0; missing = 0 end
request = function()
  if math.random() < ${randomShare} then
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

type Row = { build: string; mode: string; found: number; missing: number; p99: number };

async function measure(build: string, tree: string, migrate?: (sqlite: Database) => void): Promise<Row[]> {
  const { dataDir, paths } = seedDataDir(links, 100, migrate);
  // Every link fits the cache, so all are held from the start: only the scan can push the popular ones out.
  const hot = paths.slice(0, popular);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = Bun.spawn([bun, join(tree, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
    env: { ...process.env, NODE_ENV: "production", LINK_CACHE_SIZE: String(links) },
    stdout: "ignore",
    stderr: "inherit",
  });
  await waitForHttp(`${url}/healthz`);
  const rows: Row[] = [];
  try {
    for (const [mode, share, duration] of [["warm-up", 0, 2], ["popular only", 0, seconds / 2], ["half random", 0.5, seconds]] as const) {
      const script = scanScript(hot, share);
      const child = Bun.spawn(["wrk", "-t2", `-c${connections}`, `-d${duration}s`, "--latency", "-s", script, url], { stdout: "pipe", stderr: "pipe" });
      const [out] = await Promise.all([new Response(child.stdout).text(), child.exited]);
      const counts = out.split("\n").find((l) => l.startsWith("SCANJSON "));
      const summary = out.split("\n").find((l) => l.startsWith("WRKJSON "));
      if (!counts || !summary) throw new Error(`wrk printed no summary:\n${out}`);
      const c = JSON.parse(counts.slice(9)) as { found: number; missing: number; seconds: number };
      const s = JSON.parse(summary.slice(8)) as { p99: number };
      if (mode !== "warm-up") rows.push({ build, mode, found: c.found / c.seconds, missing: c.missing / c.seconds, p99: s.p99 });
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
console.log(`
${fmt(links)} links (LINK_CACHE_SIZE ${fmt(links)}), ${fmt(popular)} popular, ${connections} connections, ${seconds} s per run
build                      traffic         popular 302/s   unknown 404/s   p99 ms
${rows.map((r) => `${r.build.padEnd(26)} ${r.mode.padEnd(15)} ${fmt(r.found).padStart(13)}   ${fmt(r.missing).padStart(13)}   ${fmt(r.p99, 2).padStart(6)}`).join("\n")}`);
