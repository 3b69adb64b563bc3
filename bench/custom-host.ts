// /go on the service host against the same links on their owners' custom domains (Host: u{n}.bench.test, path
// /{slug}), rounds alternating in one server and one run: what host routing costs (docs/decisions/0017).
// Every answer is checked (people: 302 to the target, crawlers: 200 card); no ratio unless both sides are 99.9 % right.
// Usage: npm run bench:custom-host [-- --seconds 10 --rounds 3 --connections 50 --links 10000]
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun,
  CRAWLER_AGENTS,
  ensureWrk,
  fmt,
  freePort,
  luaList,
  median,
  parseWrkOutput,
  PEOPLE_AGENTS,
  root,
  seedDataDir,
  waitForHttp,
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
const connections = Number(values.connections);
// Five wrk threads, one of them a crawler's: about a fifth of the load gets cards, as in the other benches.
const THREADS = 5;
const CRAWLER_EVERY = 5;
// Where seedDataDir's links point.
const TARGET_PREFIX = "https://example.com/article/";

ensureWrk();
const { dataDir, paths } = seedDataDir(Number(values.links));
// Every bench user (u0 … u99) has a verified domain u{n}.bench.test, and each of its links lives on it.
const db = new Database(join(dataDir, "linkprev.db"));
db.run(
  "INSERT INTO domains (user_id, workspace_id, hostname, status, verification_token) SELECT personal_user_id, id, slug || '.bench.test', 'verified', 'bench' FROM workspaces",
);
db.run("UPDATE links SET domain_id = (SELECT d.id FROM domains d WHERE d.user_id = links.user_id)");
db.close();

/**
 * A wrk script over `requests` ([Host header or "", path] pairs). One wrk thread in five sends crawler User-Agents,
 * the others people's, so that each answer can be checked against what its thread asked for: people must get a
 * 302 to the link's target, crawlers a 200 card. Each thread counts its statuses; done() prints them as STATUSES.
 */
function script(requests: Array<[string, string]>): string {
  const file = join(mkdtempSync(join(tmpdir(), "linkprev-bench-host-")), "host.lua");
  writeFileSync(
    file,
    `local hosts = ${luaList(requests.map(([host]) => host))}
local paths = ${luaList(requests.map(([, path]) => path))}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
local threads = {}
setup = function(thread)
  table.insert(threads, thread)
  thread:set("crawler", #threads % ${CRAWLER_EVERY} == 0)
end
counts = {}
request = function()
  local ua
  if crawler then ua = crawlers[math.random(#crawlers)] else ua = people[math.random(#people)] end
  local i = math.random(#paths)
  local headers = { ["User-Agent"] = ua }
  if hosts[i] ~= "" then headers["Host"] = hosts[i] end
  return wrk.format("GET", paths[i], headers)
end
response = function(status, headers, body)
  local location = headers["Location"] or headers["location"] or ""
  local key = tostring(status)
  if status == 302 and location:sub(1, ${TARGET_PREFIX.length}) ~= ${JSON.stringify(TARGET_PREFIX)} then key = "302-elsewhere" end
  if status == 200 and not body:find("og:url", 1, true) then key = "200-not-a-card" end
  counts[key] = (counts[key] or 0) + 1
end
done = function(summary, latency, requests)
  local out = {}
  for _, thread in ipairs(threads) do
    local kind = thread:get("crawler") and "crawler" or "person"
    for key, n in pairs(thread:get("counts")) do table.insert(out, string.format('"%s %s":%d', kind, key, n)) end
  end
  io.write("STATUSES {" .. table.concat(out, ",") .. "}\\n")
end
`,
  );
  return file;
}
const serviceHost = script(paths.map((path) => ["", path]));
// /go/u7/l107 → Host u7.bench.test, /l107
const customHost = script(
  paths.map((path) => {
    const [, , user, slug] = path.split("/");
    return [`${user}.bench.test`, `/${slug}`];
  }),
);

type Run = WrkResult & { people: number; crawlers: number; counts: Record<string, number> };
/** One wrk run and its status counts; `good` is the share of people answered 302 and of crawlers answered 200. */
function run(url: string, file: string, secs: number): Run {
  const wrk = Bun.spawnSync(["wrk", `-t${THREADS}`, `-c${connections}`, `-d${secs}s`, "--latency", "-s", file, url]);
  const out = wrk.stdout.toString();
  const line = out.split("\n").find((l) => l.startsWith("STATUSES "));
  if (!wrk.success || !line) throw new Error(`wrk ${url} failed:\n${out}${wrk.stderr.toString()}`);
  const counts = JSON.parse(line.slice(9)) as Record<string, number>;
  const total = (kind: string) =>
    Object.entries(counts)
      .filter(([key]) => key.startsWith(`${kind} `))
      .reduce((sum, [, n]) => sum + n, 0);
  return {
    ...parseWrkOutput(out),
    people: (counts["person 302"] ?? 0) / total("person"),
    crawlers: (counts["crawler 200"] ?? 0) / total("crawler"),
    counts,
  };
}
const pct = (share: number) => `${fmt(share * 100, 2)} %`;
/** The answers are what the bench claims to measure, or the run proves nothing: no ratio is printed. */
function check(side: string, result: Run) {
  if (result.people >= 0.999 && result.crawlers >= 0.999) return;
  console.error(
    `${side}: people answered 302 ${pct(result.people)}, crawlers answered 200 ${pct(result.crawlers)} (need 99.9 % each); answers ${JSON.stringify(result.counts)}`,
  );
  console.error("no ratio: the two sides did not serve the same answers");
  process.exit(1);
}

const port = await freePort();
const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
  env: { ...process.env, NODE_ENV: "production", LINK_HEALTH_EVERY_MS: "0" },
  stdout: "ignore",
  stderr: "inherit",
});
// A refused run exits early: the server goes with it.
process.on("exit", () => server.kill("SIGTERM"));
const url = `http://127.0.0.1:${port}`;
await waitForHttp(`${url}/api/version`);
check("service host (warm-up)", run(url, serviceHost, 3));
check("custom host (warm-up)", run(url, customHost, 3));

const ratios: number[] = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const service = run(url, serviceHost, seconds);
  const custom = run(url, customHost, seconds);
  check("service host", service);
  check("custom host", custom);
  ratios.push(custom.rps / service.rps);
  console.log(
    `round ${round}: service host ${fmt(service.rps)} req/s p99 ${fmt(service.p99, 2)} ms | custom host ${fmt(custom.rps)} req/s p99 ${fmt(custom.p99, 2)} ms | ratio ${fmt(custom.rps / service.rps, 2)} | 302 to people ${pct(service.people)} / ${pct(custom.people)}, 200 card to crawlers ${pct(service.crawlers)} / ${pct(custom.crawlers)}`,
  );
}
server.kill("SIGTERM");
await server.exited;
console.log(`custom-domain host ÷ service host, median of ${ratios.length} rounds: ${fmt(median(ratios), 2)}`);
