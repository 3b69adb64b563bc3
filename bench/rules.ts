// /go for links with a device and a country rule against the same server's links without rules, rounds alternating
// (docs/decisions/0021): what the rules cost a person's redirect. Visitors come from a German or a US address
// (X-Forwarded-For behind TRUST_PROXY), with the shared fixture's User-Agents, 20 % of them crawlers.
// Usage: npm run bench:rules [-- --seconds 10 --rounds 3 --connections 50]
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
  PEOPLE_AGENTS,
  root,
  runWrk,
  seedDataDir,
  waitForHttp,
} from "./lib.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

ensureWrk();
const { dataDir, paths } = seedDataDir(2_000);
// Every other link gets a device rule and a country rule: links are inserted in path order, so the link at
// index i has id i + 1, and odd ids are the even indexes.
const db = new Database(join(dataDir, "linkprev.db"));
const rules = JSON.stringify({
  rules: [
    { when: { device: "ios" }, targetUrl: "https://apps.apple.com/app/id1" },
    { when: { country: "DE" }, targetUrl: "https://example.com/de" },
  ],
});
db.run(`INSERT INTO link_rules (link_id, go_rules) SELECT id, ? FROM links WHERE id % 2 = 1`, [rules]);
db.close();

/** A wrk script over `list`, from a German (85.214.0.0/15) or a US (8.8.8.0/24) address. */
function script(list: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), "linkprev-bench-rules-")), "rules.lua");
  writeFileSync(
    file,
    `local paths = ${luaList(list)}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
local addresses = {"85.214.0.1", "85.214.17.9", "8.8.8.8", "8.8.4.4"}
request = function()
  local ua
  if math.random() < 0.2 then ua = crawlers[math.random(#crawlers)] else ua = people[math.random(#people)] end
  return wrk.format("GET", paths[math.random(#paths)], { ["User-Agent"] = ua, ["X-Forwarded-For"] = addresses[math.random(#addresses)] })
end
`,
  );
  return file;
}
const withRules = script(paths.filter((_, index) => index % 2 === 0));
const withoutRules = script(paths.filter((_, index) => index % 2 === 1));

const port = await freePort();
const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
  env: { ...process.env, NODE_ENV: "production", TRUST_PROXY: "true", LINK_HEALTH_EVERY_MS: "0" },
  stdout: "ignore",
  stderr: "inherit",
});
const url = `http://127.0.0.1:${port}`;
await waitForHttp(`${url}/api/version`);
runWrk(url, withRules, 3, connections);
runWrk(url, withoutRules, 3, connections);

const ratios: number[] = [];
for (let round = 1; round <= Number(values.rounds); round++) {
  const plain = runWrk(url, withoutRules, seconds, connections);
  const rules = runWrk(url, withRules, seconds, connections);
  ratios.push(rules.rps / plain.rps);
  console.log(
    `round ${round}: without rules ${fmt(plain.rps)} req/s p99 ${fmt(plain.p99, 2)} ms | device + country rule ${fmt(rules.rps)} req/s p99 ${fmt(rules.p99, 2)} ms | ratio ${fmt(rules.rps / plain.rps, 2)}`,
  );
}
server.kill("SIGTERM");
await server.exited;
console.log(
  `/go with a device and a country rule ÷ without rules, median of ${ratios.length} rounds: ${fmt(median(ratios), 2)}`,
);
