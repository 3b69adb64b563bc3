// How /go and the dashboard hold up as data grows: 1,000 vs 100,000 links and 0 vs 1,000,000 stored views.
// The dashboard reads the rollups, never the views table, so neither should slow down.
// Usage: npm run bench:growth [-- --seconds 5]
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { bun, credentialsFor, CRAWLER_AGENTS, ensureWrk, fmt, freePort, luaList, PEOPLE_AGENTS, root, seedDataDir, waitForHttp, wrkAsync, wrkJsonScript } from "./lib.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "5" } } });
const seconds = Number(values.seconds);
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

const rows: string[] = [];
for (const [links, views] of [[1_000, 0], [100_000, 0], [1_000, 1_000_000], [100_000, 1_000_000]] as const) {
  const { dataDir, paths } = seedDataDir(links, Math.max(10, links / 100));
  if (views) addViews(dataDir, views);
  const { cookie } = credentialsFor(dataDir, 1);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], { env: { ...process.env, NODE_ENV: "production" }, stdout: "ignore", stderr: "inherit" });
  await waitForHttp(`${url}/healthz`);
  const go = await wrkAsync(
    url,
    wrkJsonScript(`local paths = ${luaList(paths.slice(0, 20_000))}
local people = ${luaList(PEOPLE_AGENTS)}
local crawlers = ${luaList(CRAWLER_AGENTS)}
request = function()
  local ua = math.random() < 0.2 and crawlers[math.random(#crawlers)] or people[math.random(#people)]
  return wrk.format("GET", paths[math.random(#paths)], { ["User-Agent"] = ua })
end`),
    seconds,
    50,
    2,
  );
  const dashboard = await wrkAsync(url, wrkJsonScript(`request = function() return wrk.format("GET", "/admin", { ["Cookie"] = "${cookie}" }) end`), seconds, 1);
  server.kill("SIGTERM");
  await server.exited;
  const perUser = Math.round(links / Math.max(10, links / 100));
  rows.push(
    `${fmt(links).padStart(8)}  ${fmt(views).padStart(9)}   ${fmt(go.requests / go.seconds).padStart(7)}  ${fmt(go.p99, 2).padStart(7)}   ${fmt(dashboard.requests / dashboard.seconds).padStart(6)}  ${fmt(dashboard.p50, 2).padStart(7)}  ${fmt(dashboard.p99, 2).padStart(7)}   (${perUser} links on the dashboard)`,
  );
}
console.log(`
   links      views   /go req/s  p99 ms   /admin req/s  p50 ms   p99 ms
${rows.join("\n")}`);
