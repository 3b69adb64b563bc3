// /go throughput of this checkout against another commit, side by side: both servers run at once, each on its own
// data directory seeded with its own schema, and wrk alternates between them (which goes first alternates too), so
// the drift of a shared machine falls on both. Finer than `npm run bench`'s ratio to a bare server, whose rounds
// are minutes apart: use it to say what a change costs.
// Usage: npm run bench:compare -- <git ref> [--runs 12 --seconds 5 --connections 50 --links 10000] [--webhook]
// --webhook: in this checkout every user has an endpoint subscribed to link.clicked, at a local receiver, and
// WEBHOOK_CLICK_WINDOW_MS is 10 s (six times the default rate of events).
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  bun,
  checkoutRef,
  ensureWrk,
  fmt,
  freePort,
  root,
  runWrk,
  seedDataDir,
  waitForHttp,
  wrkScript,
} from "./lib.ts";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "12" },
    seconds: { type: "string", default: "5" },
    connections: { type: "string", default: "50" },
    links: { type: "string", default: "10000" },
    webhook: { type: "boolean", default: false },
  },
});
const [ref] = positionals;
if (!ref) {
  console.error("usage: npm run bench:compare -- <git ref> [--runs 12 --seconds 5 --connections 50 --links 10000]");
  process.exit(2);
}
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const links = Number(values.links);

ensureWrk();
// The other commit, checked out beside this one (its own sources and migrations, this checkout's packages).
const { tree: baseDir, commit, migrate: baseMigrations } = await checkoutRef(ref);

console.log(`seeding ${fmt(links)} links for each...`);
const builds = [
  { tree: baseDir, ...seedDataDir(links, 100, baseMigrations) },
  { tree: root, ...seedDataDir(links) },
];
const script = wrkScript(builds[0]!.paths, 0.2);

// A receiver that acknowledges every delivery, in a process of its own (wrk runs synchronously here, which would
// stall a server in this process); each seeded user subscribes to link.clicked there.
const receiver = values.webhook
  ? Bun.spawn(
      [
        bun,
        "-e",
        `let n = 0; const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => new URL(r.url).pathname === "/count" ? new Response(String(n)) : (n++, new Response("ok")) }); console.log(s.port);`,
      ],
      { stdout: "pipe" },
    )
  : null;
const receiverUrl = receiver
  ? `http://127.0.0.1:${new TextDecoder().decode((await receiver.stdout.getReader().read()).value).trim()}`
  : "";
if (receiver) {
  const sqlite = new Database(join(builds[1]!.dataDir, "linkprev.db"));
  sqlite.run(
    "INSERT INTO webhook_endpoints (user_id, workspace_id, url, events, secret) SELECT personal_user_id, id, ?, '[\"link.clicked\"]', 'whsec_' || hex(randomblob(24)) FROM workspaces",
    [`${receiverUrl}/hooks`],
  );
  sqlite.close();
}
const webhookEnv = (index: number) =>
  receiver && index === 1 ? { FETCH_ALLOW_PRIVATE: "127.0.0.1/32", WEBHOOK_CLICK_WINDOW_MS: "10000" } : {};

const servers = await Promise.all(
  builds.map(async (build, index) => {
    const port = await freePort();
    const child = Bun.spawn(
      [bun, join(build.tree, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", build.dataDir],
      {
        env: { ...process.env, NODE_ENV: "production", ...webhookEnv(index) },
        stdout: "ignore",
        stderr: "inherit",
      },
    );
    await waitForHttp(`http://127.0.0.1:${port}/api/version`);
    return { url: `http://127.0.0.1:${port}`, child };
  }),
);
for (const server of servers) runWrk(server.url, script, 3, connections);

console.log(
  `${runs} runs of ${seconds} s each, ${connections} connections, 20 % crawler agents, ${ref} (${commit.slice(0, 10)}) against this checkout`,
);
const ratios: number[] = [];
for (let run = 0; run < runs; run++) {
  const order = run % 2 === 0 ? [0, 1] : [1, 0];
  const rps: number[] = [];
  for (const index of order) rps[index] = runWrk(servers[index]!.url, script, seconds, connections).rps;
  ratios.push(rps[1]! / rps[0]!);
  console.log(
    `run ${String(run + 1).padStart(2)}: ${ref} ${fmt(rps[0]!).padStart(7)} req/s | this checkout ${fmt(rps[1]!).padStart(7)} req/s | ratio ${fmt(rps[1]! / rps[0]!, 3)}`,
  );
}
for (const server of servers) server.child.kill("SIGTERM");
await Promise.all(servers.map((server) => server.child.exited));
if (receiver) {
  console.log(
    `webhook deliveries received (link.clicked, every user subscribed): ${await (await fetch(`${receiverUrl}/count`)).text()}`,
  );
  receiver.kill();
}

const sorted = [...ratios].sort((x, y) => x - y);
const median = (sorted[Math.floor((runs - 1) / 2)]! + sorted[Math.ceil((runs - 1) / 2)]!) / 2;
const mean = ratios.reduce((sum, r) => sum + r, 0) / runs;
console.log(`
/go, this checkout ÷ ${ref}: median ${fmt(median, 3)}, mean ${fmt(mean, 3)}, range ${fmt(sorted[0]!, 3)}–${fmt(sorted[runs - 1]!, 3)}
(1.000 is no change; the range is this machine's noise between back-to-back runs)`);
