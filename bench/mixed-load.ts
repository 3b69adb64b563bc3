// A mixed workload against 10,000 links: ~95 % /go (people and crawlers), dashboard pages and API reads, and a
// trickle of writes, all at once, for 30 s. Prints throughput, p50/p99/p99.9 per route, errors and peak RSS.
// Usage: npm run bench:mixed [-- --seconds 30]
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bun, cpuSeconds, credentialsFor, CRAWLER_AGENTS, ensureWrk, fmt, freePort, luaList, peakRssMb, PEOPLE_AGENTS, root, seedDataDir, waitForHttp, wrkAsync, wrkJsonScript } from "./lib.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "30" }, links: { type: "string", default: "10000" } } });
const seconds = Number(values.seconds);

ensureWrk();
const { dataDir, paths } = seedDataDir(Number(values.links));
const { cookie, token } = credentialsFor(dataDir, 1);
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
  env: { ...process.env, NODE_ENV: "production", AUTH_RATE_LIMIT: "100000" },
  stdout: "ignore",
  stderr: "inherit",
});
await waitForHttp(`${url}/healthz`);

const go = wrkJsonScript(`
local paths = ${luaList(paths)}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
request = function()
  local ua = math.random() < 0.2 and crawlers[math.random(#crawlers)] or people[math.random(#people)]
  return wrk.format("GET", paths[math.random(#paths)], { ["User-Agent"] = ua })
end`);
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

console.log(`mixed load: ${paths.length} links, ${seconds}s…`);
const cpuBefore = cpuSeconds(server.pid);
const [goRun, dashRun, apiRun, writeRun] = await Promise.all([
  wrkAsync(url, go, seconds, 46, 1),
  wrkAsync(url, dashboard, seconds, 2),
  wrkAsync(url, apiReads, seconds, 1),
  wrkAsync(url, writes, seconds, 1),
]);
const rss = peakRssMb(server.pid);
const cpuUsed = cpuSeconds(server.pid) - cpuBefore;
server.kill("SIGTERM");
await server.exited;

const rows: Array<[string, typeof goRun]> = [["/go", goRun], ["GET /admin", dashRun], ["API reads", apiRun], ["POST /api/links", writeRun]];
const total = rows.reduce((n, [, r]) => n + r.requests, 0);
console.log(`
route              requests  share    req/s   p50 ms   p99 ms  p99.9 ms  errors`);
for (const [name, r] of rows) {
  console.log(
    `${name.padEnd(17)} ${fmt(r.requests).padStart(9)} ${fmt((100 * r.requests) / total, 1).padStart(5)} % ${fmt(r.requests / r.seconds).padStart(8)} ${fmt(r.p50, 2).padStart(8)} ${fmt(r.p99, 2).padStart(8)} ${fmt(r.p999, 2).padStart(9)} ${String(r.errors).padStart(7)}`,
  );
}
console.log(`all               ${fmt(total).padStart(9)}         ${fmt(total / goRun.seconds).padStart(8)}\npeak RSS of the server: ${fmt(rss, 0)} MB; server CPU ${fmt(cpuUsed, 1)} s in ${seconds} s (${fmt((100 * cpuUsed) / seconds, 0)} % of one core)`);
