// /go with counting on SQLite (one node, the default) and on PostgreSQL (one node, then two nodes behind the same
// load), with the bare Bun.serve 302 ceiling for context: one run, rounds alternating (the order rotates each round),
// 10,000 links, 20 % crawler agents, the same wrk script and the same total number of connections everywhere.
// Two nodes get two wrk processes at once, half the connections each (one per node, like an even load balancer);
// their total's p50/p99 is the larger node's, an upper bound of the pooled percentile.
// After the rounds the nodes are stopped gracefully (SIGTERM) and each database must hold exactly one view per /go
// response wrk received, plus at most one request per connection per wrk run left in flight when the run ended
// (served and counted, never received); on PostgreSQL the rollups are checked per node (slot) as well.
// Usage: npm run bench:cluster [-- --seconds 10 --rounds 3 --connections 50 --links 10000 --warmup 3]
//
// Every node holds all links in its cache (LINK_CACHE_MB at 2 KB a link); on PostgreSQL an entry is re-read after 60 s.
//
// What these figures are not: the machine running them has 2 cores, shared by wrk, the Bun node(s) and PostgreSQL
// (and whatever else runs there: the "rest of the machine" column). A second node cannot add throughput here, it
// only splits the same cores; it even costs some (two processes, two writers, smaller view batches, which cost
// PostgreSQL more per view). The printed CPU columns say where the cores went. In a real deployment the database has
// its own machine and each node its own cores: PostgreSQL's CPU per stored view then stops competing with /go,
// each node serves about what one node serves alone, and the total grows with the nodes until the database's view
// insert rate (one unnest statement per batch per node), its disk (this throwaway cluster runs with fsync,
// synchronous_commit and full_page_writes off, so writes here are cheaper than on a durable server) or the load
// balancer becomes the limit. Network round trips to the database lengthen each writer batch, not /go (the links
// are served from each node's memory; views are written by a Worker off the request path).
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
  createDatabase,
  databaseUrl,
  startThrowawayCluster,
  type ThrowawayCluster,
} from "../tests/helpers/postgres-cluster.ts";
import {
  bun,
  cpuSeconds,
  ensureWrk,
  fmt,
  freePort,
  root,
  runWrkAsync,
  seedDataDir,
  wrkScript,
  type WrkResult,
} from "./lib.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "50" },
    links: { type: "string", default: "10000" },
    warmup: { type: "string", default: "3" },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const linkCount = Number(values.links);
const warmupSeconds = Number(values.warmup);
const USERS = 100; // as seedDataDir
if (
  ![seconds, rounds, connections, linkCount, warmupSeconds].every((n) => Number.isInteger(n) && n > 0) ||
  connections < 2
) {
  console.error("--seconds, --rounds, --links and --warmup must be positive integers, --connections at least 2");
  process.exit(2);
}
const half = Math.floor(connections / 2);

// ---------------------------------------------------------------------------------------------------------------
// Everything started here, so that an error, Ctrl-C or SIGTERM stops it all.
const processes = new Set<ReturnType<typeof Bun.spawn>>();
const dirs: string[] = [];
let cluster: ThrowawayCluster | null = null;

function cleanUpSync() {
  for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  cluster?.stopSync();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the nodes, wrk and PostgreSQL`);
    cleanUpSync();
    process.exit(130);
  });
}

const scratchDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

// The nodes see none of the caller's database settings but ours.
const baseEnv: Record<string, string> = {};
for (const [key, value] of Object.entries(process.env)) {
  if (
    value !== undefined &&
    !/^(DATABASE_|UPLOADS_|S3_|NODE_SLOT$|PORT$|HOST$|DATA_DIR$|LINK_CACHE_(SIZE|MB)$|VIEW_)/.test(key)
  )
    baseEnv[key] = value;
}
Object.assign(baseEnv, {
  NODE_ENV: "production",
  LINK_CACHE_MB: String(Math.max(64, Math.ceil((linkCount * 2048) / 2 ** 20))),
});

type Node = { name: string; url: string; child: ReturnType<typeof Bun.spawn>; stderr: Promise<string> };

async function startNode(name: string, env: Record<string, string>): Promise<Node> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? scratchDir("linkprev-bench-node-");
  const child = Bun.spawn([bun, join(root, "cli/linkprev.ts"), "serve", "--port", String(port), "--data", dataDir], {
    env: { ...baseEnv, ...env },
    stdout: "ignore",
    stderr: "pipe",
  });
  processes.add(child);
  // Read from the start: a node logging many errors must not block on a full pipe.
  return { name, url: `http://127.0.0.1:${port}`, child, stderr: new Response(child.stderr as ReadableStream).text() };
}

async function waitHealthy(node: Node, path = "/healthz") {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (node.child.exitCode !== null)
      throw new Error(`${node.name} exited (${node.child.exitCode}) while starting:\n${await node.stderr}`);
    if (
      await fetch(`${node.url}${path}`, { redirect: "manual" }).then(
        (r) => r.status < 400,
        () => false,
      )
    )
      return;
    await Bun.sleep(50);
  }
  throw new Error(`${node.name} did not answer ${path} within 60 s`);
}

/** SIGTERM (the node stores its buffered views, then exits); SIGKILL after a minute. */
async function stopNode(node: Node): Promise<string> {
  if (node.child.exitCode !== null) return `had already exited (${node.child.exitCode})`;
  node.child.kill("SIGTERM");
  const outcome = await Promise.race([node.child.exited.then(() => "exited"), Bun.sleep(60_000).then(() => "timeout")]);
  if (outcome === "timeout") {
    node.child.kill("SIGKILL");
    await node.child.exited;
    return "did not stop within 60 s of SIGTERM: killed";
  }
  return node.child.exitCode === 0 ? "stopped" : `exited with ${node.child.exitCode}`;
}

// ---------------------------------------------------------------------------------------------------------------
// CPU: where the 2 cores went during the timed rounds.

/**
 * The cluster's CPU (Linux /proc): `total` is the postmaster's own and its reaped children's plus every live child's;
 * `database` only that of the connections to `database` (a backend's title is "postgres: USER DATABASE …"). The rest
 * is background work (autovacuum, WAL writer, checkpointer), which lands in whichever run it happens during.
 */
function postgresCpuSeconds(database?: string): { total: number; database: number } {
  if (!cluster) return { total: 0, database: 0 };
  let postmaster: number;
  try {
    postmaster = Number(readFileSync(join(cluster.socketDir, "data", "postmaster.pid"), "utf8").split("\n", 1)[0]);
  } catch {
    return { total: NaN, database: NaN };
  }
  const fieldsOf = (pid: string | number) => {
    try {
      return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    } catch {
      return null;
    }
  };
  const own = fieldsOf(postmaster);
  if (!own) return { total: NaN, database: NaN };
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  let databaseTicks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = fieldsOf(entry);
    if (!fields || Number(fields[1]) !== postmaster) continue;
    const used = Number(fields[11]) + Number(fields[12]);
    ticks += used;
    if (database === undefined) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").split(" ")[2] === database) databaseTicks += used;
    } catch {}
  }
  return { total: ticks / 100, database: databaseTicks / 100 };
}

/** CPU seconds every process on the machine has used (all cores; Linux /proc/stat): what is not ours is others'. */
function machineCpuSeconds(): number {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n", 1)[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
  } catch {
    return NaN;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Configurations.

type Target = { label: string; node: Node | null; url: string; connections: number; threads: number };
type Setup = {
  key: string;
  label: string;
  targets: Target[];
  /** Per round, one result per target. */
  rounds: WrkResult[][];
  /** Per target: /go responses wrk received (warm-up included) and the in-flight allowance. */
  received: number[];
  inFlight: number[];
  cpu: { wall: number; server: number; postgres: number; postgresOwn: number; wrk: number; machine: number };
  /** The PostgreSQL database this setup's nodes use, if any. */
  database?: string;
};

function setup(key: string, label: string, targets: Target[]): Setup {
  return {
    key,
    label,
    targets,
    rounds: [],
    received: targets.map(() => 0),
    inFlight: targets.map(() => 0),
    cpu: { wall: 0, server: 0, postgres: 0, postgresOwn: 0, wrk: 0, machine: 0 },
  };
}

/** One timed (or warm-up) run of a setup: every target at once. */
async function measure(s: Setup, script: string, runSeconds: number, timed: boolean): Promise<WrkResult[]> {
  const servers = s.targets.map((t) => t.node?.child.pid ?? bareServer!.pid);
  const serverBefore = servers.map(cpuSeconds);
  const pgBefore = postgresCpuSeconds(s.database);
  const machineBefore = machineCpuSeconds();
  const wrks: ReturnType<typeof Bun.spawn>[] = [];
  const results = await Promise.all(
    s.targets.map((t) =>
      runWrkAsync(t.url, script, runSeconds, t.connections, t.threads, (child) => {
        processes.add(child);
        wrks.push(child);
      }),
    ),
  );
  s.targets.forEach((t, i) => {
    s.received[i]! += results[i]!.requests;
    s.inFlight[i]! += t.connections;
  });
  if (timed) {
    s.rounds.push(results);
    s.cpu.wall += runSeconds;
    s.cpu.server += servers.reduce((sum, pid, i) => sum + cpuSeconds(pid) - serverBefore[i]!, 0);
    const pgAfter = postgresCpuSeconds(s.database);
    s.cpu.postgres += pgAfter.total - pgBefore.total;
    s.cpu.postgresOwn += pgAfter.database - pgBefore.database;
    s.cpu.machine += machineCpuSeconds() - machineBefore;
    s.cpu.wrk += wrks.reduce((sum, child) => sum + Number(child.resourceUsage()?.cpuTime.total ?? NaN) / 1e6, 0);
  }
  for (const child of wrks) processes.delete(child);
  return results;
}

// ---------------------------------------------------------------------------------------------------------------
// PostgreSQL: the same links as seedDataDir, in one transaction through unnest() arrays.

async function seedPostgres(url: string, links: number, users: number): Promise<string[]> {
  const sql = new SQL({ url, max: 1 });
  const paths: string[] = [];
  try {
    await sql.begin(async (tx) => {
      const emails = Array.from({ length: users }, (_, u) => `bench${u}@example.com`);
      const slugs = Array.from({ length: users }, (_, u) => `u${u}`);
      const rows: Array<{ id: number; user_slug: string }> = await tx`
        INSERT INTO users (email, user_slug)
        SELECT * FROM unnest(${sql.array(emails, "TEXT")}::text[], ${sql.array(slugs, "TEXT")}::text[])
        RETURNING id, user_slug`;
      const ids = new Map(rows.map((r) => [r.user_slug, r.id]));
      // Each user's personal workspace (docs/decisions/0063), whose links they are.
      await tx`
        INSERT INTO workspaces (slug, name, personal_user_id) SELECT user_slug, 'Personal', id FROM users`;
      await tx`
        INSERT INTO workspace_members (workspace_id, user_id, role) SELECT id, personal_user_id, 'owner' FROM workspaces`;
      const columns = {
        userId: [] as number[],
        slug: [] as string[],
        target: [] as string[],
        title: [] as string[],
        description: [] as string[],
        image: [] as string[],
      };
      for (let u = 0; u < users; u++) {
        for (let l = u; l < links; l += users) {
          columns.userId.push(ids.get(`u${u}`)!);
          columns.slug.push(`l${l}`);
          columns.target.push(`https://example.com/article/${l}`);
          columns.title.push(`Title ${l}`);
          columns.description.push(`Description of link ${l}`);
          columns.image.push("/uploads/x.webp");
          paths.push(`/go/u${u}/l${l}`);
        }
      }
      await tx`
        INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description, image_url)
        SELECT u, (SELECT id FROM workspaces WHERE personal_user_id = u), s, t, ti, d, i FROM unnest(${sql.array(columns.userId, "INT")}::int[], ${sql.array(columns.slug, "TEXT")}::text[],
                             ${sql.array(columns.target, "TEXT")}::text[], ${sql.array(columns.title, "TEXT")}::text[],
                             ${sql.array(columns.description, "TEXT")}::text[], ${sql.array(columns.image, "TEXT")}::text[]) AS x(u, s, t, ti, d, i)`;
    });
    await sql`ANALYZE`;
  } finally {
    await sql.close();
  }
  return paths;
}

async function postgresCounts(url: string): Promise<{ views: number; bySlot: Map<number, number> }> {
  const sql = new SQL({ url, max: 1 });
  try {
    const [{ n }] = await sql`SELECT count(*)::int8 AS n FROM views`;
    const slots: Array<{ slot: number; n: string | number }> =
      await sql`SELECT slot, sum(human + bot)::int8 AS n FROM view_rollups GROUP BY slot ORDER BY slot`;
    return { views: Number(n), bySlot: new Map(slots.map((r) => [Number(r.slot), Number(r.n)])) };
  } finally {
    await sql.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

let bareServer: ReturnType<typeof Bun.spawn> | null = null;
const nodes: Node[] = [];
let failed = false;

try {
  ensureWrk();
  console.log(`seeding ${fmt(linkCount)} links into SQLite...`);
  const { dataDir: sqliteDir, paths } = seedDataDir(linkCount, USERS);
  const script = wrkScript(paths, 0.2);

  console.log("starting a throwaway PostgreSQL cluster...");
  cluster = await startThrowawayCluster();
  const singleUrl = await createDatabase(cluster.url, "lp_bench_single");
  const migrate = Bun.spawn(
    [bun, join(root, "cli/linkprev.ts"), "admin", "migrate", "--data", scratchDir("linkprev-bench-migrate-")],
    {
      env: { ...baseEnv, DATABASE_URL: singleUrl },
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  processes.add(migrate);
  const [migrateOut, migrateErr, migrateCode] = await Promise.all([
    new Response(migrate.stdout).text(),
    new Response(migrate.stderr).text(),
    migrate.exited,
  ]);
  if (migrateCode !== 0) throw new Error(`linkprev admin migrate failed (${migrateCode}):\n${migrateOut}${migrateErr}`);
  console.log(`linkprev admin migrate: ${migrateOut.trim()}`);
  console.log(`seeding ${fmt(linkCount)} links into PostgreSQL...`);
  const pgPaths = await seedPostgres(singleUrl, linkCount, USERS);
  if (pgPaths.join("\n") !== paths.join("\n"))
    throw new Error("the PostgreSQL seed does not hold the same links as the SQLite one");
  // The two-node database: a copy of the seeded one (nothing is connected to it now).
  const pairUrl = await createDatabase(cluster.url, "lp_bench_pair", "lp_bench_single");
  if (pairUrl !== databaseUrl(cluster.url, "lp_bench_pair")) throw new Error("unexpected database URL");

  console.log("starting bare 302, the SQLite node and three PostgreSQL nodes...");
  const barePort = await freePort();
  bareServer = Bun.spawn([bun, join(root, "bench/bare-302.ts"), String(barePort)], {
    stdout: "ignore",
    stderr: "inherit",
  });
  processes.add(bareServer);
  const sqliteNode = await startNode("SQLite node", { DATA_DIR: sqliteDir });
  const pgNode = await startNode("PostgreSQL single node (slot 1)", { DATABASE_URL: singleUrl, NODE_SLOT: "1" });
  const nodeA = await startNode("PostgreSQL node A (slot 1)", { DATABASE_URL: pairUrl, NODE_SLOT: "1" });
  const nodeB = await startNode("PostgreSQL node B (slot 2)", { DATABASE_URL: pairUrl, NODE_SLOT: "2" });
  nodes.push(sqliteNode, pgNode, nodeA, nodeB);
  await Promise.all(nodes.map((n) => waitHealthy(n)));
  await waitHealthy(
    { name: "bare 302", url: `http://127.0.0.1:${barePort}`, child: bareServer, stderr: Promise.resolve("") },
    "/",
  );

  const setups = [
    setup("bare", "bare Bun.serve 302", [
      { label: "", node: null, url: `http://127.0.0.1:${barePort}`, connections, threads: 2 },
    ]),
    setup("sqlite", "SQLite, one node", [
      { label: "", node: sqliteNode, url: sqliteNode.url, connections, threads: 2 },
    ]),
    {
      ...setup("pg1", "PostgreSQL, one node", [{ label: "", node: pgNode, url: pgNode.url, connections, threads: 2 }]),
      database: "lp_bench_single",
    },
    {
      ...setup("pg2", "PostgreSQL, two nodes", [
        { label: `node A (slot 1, ${half} conn.)`, node: nodeA, url: nodeA.url, connections: half, threads: 1 },
        {
          label: `node B (slot 2, ${connections - half} conn.)`,
          node: nodeB,
          url: nodeB.url,
          connections: connections - half,
          threads: 1,
        },
      ]),
      database: "lp_bench_pair",
    },
  ];

  // Warm each (link cache, JIT, PostgreSQL's buffers) before measuring; the warm-up's views count as served too.
  console.log(`warming up (${warmupSeconds} s each)...`);
  for (const s of setups) await measure(s, script, warmupSeconds, false);

  const total = (results: WrkResult[]) => results.reduce((sum, r) => sum + r.rps, 0);
  for (let round = 1; round <= rounds; round++) {
    const order = setups.map((_, i) => setups[(i + round - 1) % setups.length]!);
    for (const s of order) await measure(s, script, seconds, true);
    const line = setups.map((s) => {
      const last = s.rounds.at(-1)!;
      const parts = last.length > 1 ? ` (${last.map((r) => fmt(r.rps)).join(" + ")})` : "";
      return `${s.key} ${fmt(total(last))}${parts}`;
    });
    console.log(`round ${round} (${order.map((s) => s.key).join(" → ")}): ${line.join(" | ")} req/s`);
  }

  console.log("stopping the nodes (SIGTERM: each stores its buffered views)...");
  const stopped = await Promise.all(nodes.map(stopNode));
  bareServer.kill();

  // -------------------------------------------------------------------------------------------------------------
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const mean = (xs: number[]) => sum(xs) / xs.length;
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
  };
  const bare = setups[0]!;
  const row = (label: string, rps: number, p50: number, p99: number, errors: number, cpu?: Setup["cpu"]) =>
    `${label.padEnd(32)} ${fmt(rps).padStart(8)}   ${fmt(p50, 2).padStart(6)}   ${fmt(p99, 2).padStart(6)}   ${String(errors).padStart(6)}` +
    (cpu
      ? `   ${[cpu.server, cpu.postgres, cpu.wrk, cpu.machine - cpu.server - cpu.postgres - cpu.wrk].map((c) => fmt(Math.max(0, c) / cpu.wall, 2).padStart(4)).join(" / ")}`
      : "");

  const lines: string[] = [];
  lines.push(
    `/go cluster benchmark: ${fmt(paths.length)} links, 20 % crawler agents, ${connections} connections in all, ${rounds} × ${seconds} s rounds alternating, ${navigator.hardwareConcurrency} cores shared by everything`,
  );
  lines.push(
    `${"".padEnd(32)}    req/s   p50 ms   p99 ms   errors   cores busy: server(s) / PostgreSQL / wrk / rest of the machine`,
  );
  for (const s of setups) {
    const rps = mean(s.rounds.map(total));
    const p50 = mean(s.rounds.map((rs) => Math.max(...rs.map((r) => r.p50))));
    const p99 = mean(s.rounds.map((rs) => Math.max(...rs.map((r) => r.p99))));
    const errors = sum(s.rounds.flat().map((r) => r.errors));
    lines.push(row(s.targets.length > 1 ? `${s.label}, total` : s.label, rps, p50, p99, errors, s.cpu));
    if (s.targets.length > 1) {
      s.targets.forEach((t, i) => {
        const mine = s.rounds.map((rs) => rs[i]!);
        lines.push(
          row(
            `  ${t.label}`,
            mean(mine.map((r) => r.rps)),
            mean(mine.map((r) => r.p50)),
            mean(mine.map((r) => r.p99)),
            sum(mine.map((r) => r.errors)),
          ),
        );
      });
    }
  }
  lines.push(
    "(means of the rounds; two nodes' total p50/p99: the larger node's each round, an upper bound of the pooled percentile;",
  );
  lines.push(
    ' cores busy: CPU seconds ÷ wall seconds of the timed runs, "rest" is every other process on the machine)',
  );
  lines.push("");
  lines.push("÷ bare, per round (median):");
  for (const s of setups.slice(1)) {
    const ratios = s.rounds.map((rs, i) => total(rs) / total(bare.rounds[i]!));
    lines.push(`  ${s.label.padEnd(24)} ${ratios.map((r) => fmt(r, 2)).join(", ")} (median ${fmt(median(ratios), 2)})`);
  }

  // CPU per response: what each configuration costs whatever else the machine was doing.
  lines.push("");
  lines.push("CPU per /go response in the timed runs, µs: server(s), PostgreSQL (its connections + background), wrk:");
  for (const s of setups) {
    const requests = sum(s.rounds.flat().map((r) => r.requests));
    const us = (cpu: number) => fmt((cpu / requests) * 1e6, 1).padStart(5);
    lines.push(
      `  ${s.label.padEnd(24)} ${us(s.cpu.server)}   ${us(s.cpu.postgresOwn)} + ${us(s.cpu.postgres - s.cpu.postgresOwn)}   ${us(s.cpu.wrk)}`,
    );
  }
  lines.push(
    "  (background = autovacuum, WAL writer, checkpoints of the whole cluster: partly the other configurations' writes)",
  );

  // Stored = served.
  lines.push("");
  lines.push(
    "stored = served, after SIGTERM of the nodes (warm-up included; wrk leaves ≤ 1 request per connection in flight when a run ends):",
  );
  const verdict = (stored: number, received: number, allowance: number) => {
    const extra = stored - received;
    const ok = extra >= 0 && extra <= allowance;
    if (!ok) failed = true;
    return `${ok ? "ok" : "MISMATCH"}: ${fmt(stored)} = ${fmt(received)} received + ${fmt(extra)} in flight (≤ ${fmt(allowance)})`;
  };
  const db = new Database(join(sqliteDir, "linkprev.db"), { readonly: true });
  const sqliteViews = (db.query("SELECT count(*) AS n FROM views").get() as { n: number }).n;
  const sqliteCounters = (
    db.query("SELECT coalesce(sum(human + bot), 0) AS n FROM view_rollups").get() as { n: number }
  ).n;
  db.close();
  const sqliteSetup = setups[1]!;
  lines.push(
    `  SQLite, one node          views ${verdict(sqliteViews, sqliteSetup.received[0]!, sqliteSetup.inFlight[0]!)}`,
  );
  lines.push(
    `                            counters ${verdict(sqliteCounters, sqliteSetup.received[0]!, sqliteSetup.inFlight[0]!)}`,
  );
  const single = await postgresCounts(singleUrl);
  const pg1 = setups[2]!;
  lines.push(`  PostgreSQL, one node      views ${verdict(single.views, pg1.received[0]!, pg1.inFlight[0]!)}`);
  lines.push(
    `                            counters ${verdict(sum([...single.bySlot.values()]), pg1.received[0]!, pg1.inFlight[0]!)}`,
  );
  const pair = await postgresCounts(pairUrl);
  const pg2 = setups[3]!;
  lines.push(`  PostgreSQL, two nodes     views ${verdict(pair.views, sum(pg2.received), sum(pg2.inFlight))}`);
  pg2.targets.forEach((t, i) => {
    const slot = i + 1;
    lines.push(
      `    ${t.label.padEnd(28)}counters of slot ${slot} ${verdict(pair.bySlot.get(slot) ?? 0, pg2.received[i]!, pg2.inFlight[i]!)}`,
    );
  });
  const otherSlots = [...pair.bySlot.keys()].filter((slot) => slot !== 1 && slot !== 2);
  if (otherSlots.length > 0) {
    failed = true;
    lines.push(`    unexpected rollup slots: ${otherSlots.join(", ")}`);
  }

  // What the nodes said on stderr (view writer failures would show here) and how they stopped.
  lines.push("");
  for (const [i, node] of nodes.entries()) {
    const all = (await node.stderr).trim().split("\n").filter(Boolean);
    const errors = all.filter((l) => /error|fail|not stored|exception|panic/i.test(l));
    lines.push(
      `${node.name}: ${stopped[i]}; ${all.length ? `stderr ${all.length} line(s), ${errors.length} naming an error or failure:` : "nothing on stderr"}`,
    );
    // Errors first (view writer failures), then the rest.
    const shown = [...errors, ...all.filter((l) => !errors.includes(l))];
    for (const l of shown.slice(0, 30)) lines.push(`  | ${l}`);
    if (shown.length > 30) lines.push(`  | … ${shown.length - 30} more lines`);
    if (errors.length > 0 || stopped[i] !== "stopped") failed = true;
  }
  const busiest = Math.max(
    ...setups.map((s) => (s.cpu.machine - s.cpu.server - s.cpu.postgres - s.cpu.wrk) / s.cpu.wall),
  );
  if (busiest > 0.2)
    lines.push(
      `\nOther processes kept up to ${fmt(busiest, 2)} cores busy during these runs: the figures are noisier than on an idle machine.`,
    );
  console.log(`\n${lines.join("\n")}`);
} catch (error) {
  failed = true;
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  for (const node of nodes) {
    if (node.child.exitCode === null) node.child.kill("SIGKILL");
    await node.child.exited;
    const err = (await node.stderr).trim();
    if (err) console.error(`${node.name} stderr:\n${err}`);
  }
} finally {
  for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await cluster?.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
