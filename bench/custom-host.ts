// /go on the service host against the same links on their owners' custom domains (Host: u{n}.bench.test, path
// /{slug}), rounds alternating in one server and one run: what host routing costs (docs/decisions/0017).
// Usage: npm run bench:custom-host [-- --seconds 10 --rounds 3 --connections 50 --links 10000]
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bun, CRAWLER_AGENTS, ensureWrk, fmt, freePort, luaList, median, PEOPLE_AGENTS, root, runWrk, seedDataDir, waitForHttp } from "./lib.ts";

const { values } = parseArgs({
  options: { seconds: { type: "string", default: "10" }, rounds: { type: "string", default: "3" }, connections: { type: "string", default: "50" }, links: { type: "string", default: "10000" } },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

ensureWrk();
const { dataDir, paths } = seedDataDir(Number(values.links));
// Every bench user (u0 … u99) has a verified domain u{n}.bench.test, and each of its links lives on it.
const db = new Database(join(dataDir, "linkprev.db"));
db.run("INSERT INTO domains (user_id, hostname, status, verification_token) SELECT id, user_slug || '.bench.test', 'verified', 'bench' FROM users");
db.run("UPDATE links SET domain_id = (SELECT d.id FROM domains d WHERE d.user_id = links.user_id)");
db.close();

/** A wrk script over `requests` ([Host header or "", path] pairs), 20 % of them with crawler User-Agents. */
function script(requests: Array<[string, string]>): string {
  const file = join(mkdtempSync(join(tmpdir(), "linkprev-bench-host-")), "host.lua");
  writeFileSync(
    file,
    `local hosts = ${luaList(requests.map(([host]) => host))}
local paths = ${luaList(requests.map(([, path]) => path))}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
request = function()
  local ua
  if math.random() < 0.2 then ua = crawlers[math.random(#crawlers)] else ua = people[math.random(#people)] end
  local i = math.random(#paths)
  local headers = { ["User-Agent"] = ua }
  if hosts[i] ~= "" then headers["Host"] = hosts[i] end
  return wrk.format("GET", paths[i], headers)
end
`,
  );
  return file;
}
const serviceHost = script(paths.map((path) => ["", path]));
// /go/u7/l107 → Host u7.bench.test, /l107
const customHost = script(paths.map((path) => { const [, , user, slug] = path.split("/"); return [`${user}.bench.test`, `/${slug}`]; }));

const port = await freePort();
const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
  env: { ...process.env, NODE_ENV: "production", LINK_HEALTH_EVERY_MS: "0" },
  stdout: "ignore",
  stderr: "inherit",
});
const url = `http://127.0.0.1:${port}`;
await waitForHttp(`${url}/api/version`);
runWrk(url, serviceHost, 3, connections);
runWrk(url, customHost, 3, connections);

const ratios: number[] = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const service = runWrk(url, serviceHost, seconds, connections);
  const custom = runWrk(url, customHost, seconds, connections);
  ratios.push(custom.rps / service.rps);
  console.log(`round ${round}: service host ${fmt(service.rps)} req/s p99 ${fmt(service.p99, 2)} ms | custom host ${fmt(custom.rps)} req/s p99 ${fmt(custom.p99, 2)} ms | ratio ${fmt(custom.rps / service.rps, 2)}`);
}
server.kill("SIGTERM");
await server.exited;
console.log(`custom-domain host ÷ service host, median of ${ratios.length} rounds: ${fmt(median(ratios), 2)}`);
