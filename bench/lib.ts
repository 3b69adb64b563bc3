// Shared by the benchmarks: wrk (installed from Debian when absent), a seeded data directory, process helpers.
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations } from "../src/db/sqlite/migrate.ts";
import { hashSecret } from "../src/auth/tokens.ts";
import agents from "../tests/fixtures/crawler-agents.json" with { type: "json" };

export const root = join(import.meta.dir, "..");

// Everything a benchmark writes (seeded databases, wrk scripts) lives here and is removed when it exits.
const scratch = mkdtempSync(join(tmpdir(), "linkprev-bench-"));
process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
export const bun = process.execPath;

export function ensureWrk() {
  if (Bun.which("wrk")) return;
  console.log("installing wrk (apt-get)...");
  Bun.spawnSync(["apt-get", "update", "-qq"]);
  const install = Bun.spawnSync(["apt-get", "install", "-y", "-qq", "wrk"]);
  if (!install.success || !Bun.which("wrk")) throw new Error("wrk is needed: apt-get install -y wrk");
}

export async function freePort(): Promise<number> {
  const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = probe.port;
  probe.stop(true);
  return port;
}

/**
 * A data directory with `users` users holding `links` links in all; returns the short paths. `migrate`: another
 * checkout's migrations (bench/compare.ts seeds each build with its own schema).
 */
export function seedDataDir(
  links: number,
  users = 100,
  migrate: (sqlite: Database) => void = applyMigrations,
): { dataDir: string; paths: string[] } {
  const dataDir = mkdtempSync(join(scratch, "data-"));
  const sqlite = new Database(join(dataDir, "linkprev.db"), { create: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  migrate(sqlite);
  const paths: string[] = [];
  // A schema with workspaces (docs/decisions/0063) gives each user a personal one, whose links they are; an older
  // commit's has none.
  const workspaces = sqlite.query("SELECT 1 FROM sqlite_master WHERE name = 'workspaces'").get() !== null;
  sqlite.transaction(() => {
    const addUser = sqlite.query("INSERT INTO users (email, user_slug) VALUES (?, ?) RETURNING id");
    const addWorkspace = workspaces
      ? sqlite.query("INSERT INTO workspaces (slug, name, personal_user_id) VALUES (?, 'Personal', ?) RETURNING id")
      : null;
    const addLink = sqlite.query(
      workspaces
        ? "INSERT INTO links (workspace_id, user_id, link_slug, target_url, title, description, image_url) VALUES (?, ?, ?, ?, ?, ?, ?)"
        : "INSERT INTO links (user_id, link_slug, target_url, title, description, image_url) VALUES (?, ?, ?, ?, ?, ?)",
    );
    const addOwner = workspaces
      ? sqlite.query("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'owner')")
      : null;
    for (let u = 0; u < users; u++) {
      const { id } = addUser.get(`bench${u}@example.com`, `u${u}`) as { id: number };
      const workspace = addWorkspace?.get(`u${u}`, id) as { id: number } | undefined;
      if (workspace) addOwner!.run(workspace.id, id);
      for (let l = u; l < links; l += users) {
        addLink.run(
          ...(workspace ? [workspace.id] : []),
          id,
          `l${l}`,
          `https://example.com/article/${l}`,
          `Title ${l}`,
          `Description of link ${l}`,
          "/uploads/x.webp",
        );
        paths.push(`/go/u${u}/l${l}`);
      }
    }
  })();
  sqlite.close();
  return { dataDir, paths };
}

/** A wrk Lua script that spreads requests over `paths`, `crawlerShare` of them with crawler User-Agents. */
export function wrkScript(paths: string[], crawlerShare: number, extra = ""): string {
  const people = Object.values(agents.people);
  const crawlers = Object.values(agents.crawlers)
    .flat()
    .filter((a) => a !== "");
  const file = join(mkdtempSync(join(scratch, "wrk-")), "script.lua");
  const list = (xs: string[]) => `{${xs.map((x) => JSON.stringify(x)).join(",")}}`;
  writeFileSync(
    file,
    `local paths = ${list(paths)}
local people = ${list(people)}
local crawlers = ${list(crawlers)}
${extra}
request = function()
  local ua
  if math.random() < ${crawlerShare} then ua = crawlers[math.random(#crawlers)] else ua = people[math.random(#people)] end
  return wrk.format("GET", paths[math.random(#paths)], { ["User-Agent"] = ua })
end
`,
  );
  return file;
}

export type WrkResult = { requests: number; rps: number; p50: number; p99: number; errors: number };

function toMs(value: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(value.trim());
  if (!m) return NaN;
  const n = Number(m[1]);
  return m[2] === "us" ? n / 1000 : m[2] === "s" ? n * 1000 : n;
}

export function runWrk(url: string, script: string, seconds: number, connections: number): WrkResult {
  const run = Bun.spawnSync(["wrk", "-t2", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url]);
  return parseWrkOutput(run.stdout.toString());
}

export async function waitForHttp(url: string, timeoutMs = 10_000) {
  for (let i = 0; i < timeoutMs / 50; i++) {
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`${url} did not answer`);
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** A session cookie and an API token for user id `userId` (who has accepted the terms), written straight into the data directory. */
export function credentialsFor(dataDir: string, userId: number): { cookie: string; token: string } {
  const sqlite = new Database(join(dataDir, "linkprev.db"));
  const session = `benchsession${userId}`;
  const token = `lp_benchtoken${userId}`;
  sqlite.run("INSERT OR REPLACE INTO sessions (sid, user_id, sess, expire) VALUES (?, ?, ?, ?)", [
    hashSecret(session),
    userId,
    JSON.stringify({ userId, createdAt: Date.now() }),
    Date.now() + 86_400_000,
  ]);
  sqlite.run("INSERT INTO user_consents (user_id, terms_accepted, privacy_accepted) VALUES (?, 1, 1)", [userId]);
  // A token of the user's personal workspace (docs/decisions/0063).
  sqlite.run(
    "INSERT OR IGNORE INTO api_tokens (user_id, workspace_id, token_hash, name) SELECT ?1, id, ?2, 'bench' FROM workspaces WHERE personal_user_id = ?1",
    [userId, hashSecret(token)],
  );
  sqlite.close();
  return { cookie: `lp_session=${session}`, token };
}

/** wrk's own summary, with p99.9, from a Lua done() hook; the script may define request(), and `onDone` more output. */
export function wrkJsonScript(body: string, onDone = ""): string {
  const file = join(mkdtempSync(join(scratch, "wrk-")), "script.lua");
  writeFileSync(
    file,
    `${body}
done = function(summary, latency, requests)
  ${onDone}
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout + summary.errors.status
  io.write(string.format('WRKJSON {"requests":%d,"seconds":%f,"errors":%d,"p50":%f,"p99":%f,"p999":%f}\\n',
    summary.requests, summary.duration / 1e6, errors, latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency:percentile(99.9) / 1000))
end
`,
  );
  return file;
}

export type WrkJson = { requests: number; seconds: number; errors: number; p50: number; p99: number; p999: number };

/** Starts wrk in the background; resolves to its JSON summary. */
export async function wrkAsync(
  url: string,
  script: string,
  seconds: number,
  connections: number,
  threads = 1,
): Promise<WrkJson> {
  const child = Bun.spawn(["wrk", `-t${threads}`, `-c${connections}`, `-d${seconds}s`, "-s", script, url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(child.stdout).text();
  await child.exited;
  const line = out.split("\n").find((l) => l.startsWith("WRKJSON "));
  if (!line) throw new Error(`wrk printed no summary:\n${out}`);
  return JSON.parse(line.slice(8)) as WrkJson;
}

/** Peak resident memory of a process, in MB (Linux). */
export function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return NaN;
  }
}

export const luaList = (xs: string[]) => `{${xs.map((x) => JSON.stringify(x)).join(",")}}`;
export const PEOPLE_AGENTS = Object.values(agents.people);
export const CRAWLER_AGENTS = Object.values(agents.crawlers)
  .flat()
  .filter((a) => a !== "");

/** CPU seconds a process has used so far (user + system, Linux). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** wrk's text output (as runWrk reads it) turned into a WrkResult. */
export function parseWrkOutput(out: string): WrkResult {
  const grab = (re: RegExp) => re.exec(out)?.[1] ?? "NaN";
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requests: Number(grab(/(\d+) requests in/)),
    rps: Number(grab(/Requests\/sec:\s+([\d.]+)/)),
    p50: toMs(grab(/^\s+50%\s+(\S+)/m)),
    p99: toMs(grab(/^\s+99%\s+(\S+)/m)),
    errors:
      (errors ? Number(errors[1]) : 0) +
      (socketErrors
        ? socketErrors
            .slice(1)
            .map(Number)
            .reduce((a, b) => a + b, 0)
        : 0),
  };
}

/**
 * runWrk without blocking the event loop: several can run at once (one per node), and a signal handler still
 * runs meanwhile. `onStart` receives the wrk process, e.g. to kill it on Ctrl-C.
 */
export async function runWrkAsync(
  url: string,
  script: string,
  seconds: number,
  connections: number,
  threads = 2,
  onStart?: (child: Bun.Subprocess) => void,
): Promise<WrkResult> {
  const child = Bun.spawn(
    ["wrk", `-t${threads}`, `-c${connections}`, `-d${seconds}s`, "--latency", "-s", script, url],
    { stdout: "pipe", stderr: "pipe" },
  );
  onStart?.(child);
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const result = parseWrkOutput(out);
  if (code !== 0 || Number.isNaN(result.requests)) throw new Error(`wrk ${url} failed (exit ${code}):\n${out}${err}`);
  return result;
}

/** The machine's 1-, 5- and 15-minute load averages (Linux), e.g. "2.69 3.72 5.37". */
export function loadAverage(): string {
  try {
    return readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  } catch {
    return "?";
  }
}

/**
 * Lua defining wrk's delay() so that one wrk thread sends `rate` requests a second on a fixed schedule, however
 * many connections it has and however long the responses take: each request claims the next slot (slots are
 * 1000 / rate ms apart, on a monotonic clock read through LuaJIT's FFI) and waits until it. A connection that had to
 * wait for a slow response claims a slot already past and goes at once, so the offered rate holds while the server
 * slows (up to the connections in flight) instead of falling with it, as a fixed pause would make it. wrk starts its
 * latency clock when it sends, so the latencies exclude the wait. Use one wrk thread (-t1): each has its own schedule.
 */
export function luaScheduledDelay(rate: number): string {
  return `local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } lp_timespec;
int clock_gettime(int clk, lp_timespec *tp);
]]
local lp_ts = ffi.new("lp_timespec")
local function lp_now_ms() ffi.C.clock_gettime(1, lp_ts) return tonumber(lp_ts.tv_sec) * 1000 + tonumber(lp_ts.tv_nsec) / 1e6 end
local lp_interval = ${1000 / rate}
local lp_next = nil
delay = function()
  local now = lp_now_ms()
  if lp_next == nil then lp_next = now end
  local wait = lp_next - now
  lp_next = lp_next + lp_interval
  if wait <= 0 then return 0 end
  return math.floor(wait)
end`;
}

/** CPU seconds the whole machine has spent busy so far, all cores together (Linux /proc/stat; idle and iowait excluded). */
export function machineBusySeconds(): number {
  try {
    const [user, nice, system, , , irq, softirq, steal] = readFileSync("/proc/stat", "utf8")
      .split("\n")[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return (user! + nice! + system! + irq! + softirq! + (steal ?? 0)) / 100;
  } catch {
    return NaN;
  }
}

/**
 * wrkAsync with wrk's --timeout (a request slower than it is counted as an error and left out of the latencies, so
 * keep it above anything worth measuring), the CPU seconds wrk itself used, and a clear failure when wrk exits
 * non-zero or prints no summary.
 */
export async function wrkJsonRun(
  url: string,
  script: string,
  opts: { seconds: number; connections: number; threads?: number; timeoutSeconds?: number },
): Promise<WrkJson & { cpuSeconds: number }> {
  const { seconds, connections, threads = 1, timeoutSeconds = 10 } = opts;
  const child = Bun.spawn(
    ["wrk", `-t${threads}`, `-c${connections}`, `-d${seconds}s`, `--timeout`, `${timeoutSeconds}s`, "-s", script, url],
    { stdout: "pipe", stderr: "pipe" },
  );
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  const line = out.split("\n").find((l) => l.startsWith("WRKJSON "));
  if (code !== 0 || !line) throw new Error(`wrk ${url} failed (exit ${code}):\n${out}${err}`);
  return {
    ...(JSON.parse(line.slice(8)) as WrkJson),
    cpuSeconds: Number(child.resourceUsage()?.cpuTime.total ?? NaN) / 1e6,
  };
}

/**
 * Another commit, checked out beside this one in a temporary worktree (its own sources and migrations, this
 * checkout's packages, its assets built), removed when the benchmark exits.
 */
export async function checkoutRef(
  ref: string,
): Promise<{ tree: string; commit: string; migrate: (sqlite: Database) => void }> {
  const git = (...args: string[]) => {
    const run = Bun.spawnSync(["git", ...args], { cwd: root, stderr: "pipe" });
    if (!run.success) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString().trim()}`);
    return run.stdout.toString().trim();
  };
  const commit = git("rev-parse", "--verify", `${ref}^{commit}`);
  const tree = join(mkdtempSync(join(tmpdir(), "linkprev-compare-")), "base");
  git("worktree", "add", "--detach", tree, commit);
  process.on("exit", () => {
    Bun.spawnSync(["git", "worktree", "remove", "--force", tree], { cwd: root });
    rmSync(join(tree, ".."), { recursive: true, force: true });
  });
  symlinkSync(join(root, "node_modules"), join(tree, "node_modules"));
  if (!Bun.spawnSync([bun, "scripts/build-assets.ts"], { cwd: tree, stdout: "ignore", stderr: "inherit" }).success)
    throw new Error(`${ref}: the assets did not build`);
  const { applyMigrations: migrate } = (await import(
    join(tree, existsSync(join(tree, "src/db/sqlite/migrate.ts")) ? "src/db/sqlite/migrate.ts" : "src/db/migrate.ts")
  )) as { applyMigrations: (sqlite: Database) => void };
  return { tree, commit, migrate };
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
};

/**
 * Lua defining `zipfPath()`: a short path of seedDataDir(links, users) drawn with Zipf's law (s = 1: rank r with
 * weight 1 / r), the ranks scattered over the links (rank r is link r × 999,983 mod links), so that the popular links
 * are neither the newest (held at start) nor the oldest.
 * A draw costs wrk the same at any number of links: the first ranks by a search of a small exact table, the others
 * by inverting the harmonic number's expansion (ln r + γ + 1/2r − 1/12r² + 1/120r⁴, exact to 10⁻¹⁸ past the table).
 * A binary search over a table of every rank cost wrk 1.2 µs more a request at a million links than at 10,000, and
 * wrk shares the machine's cores with the server it measures.
 */
export function luaZipfPaths(links: number, users: number): string {
  return `local head = {}
local head_size = ${Math.min(links, 1024)}
do
  local h = 0
  for r = 1, head_size do h = h + 1 / r; head[r] = h end
end
local gamma = 0.57721566490153286
local function harmonic(r)
  if r <= head_size then return head[r] end
  return math.log(r) + gamma + 1 / (2 * r) - 1 / (12 * r * r) + 1 / (120 * r ^ 4)
end
local total = harmonic(${links})
zipfPath = function()
  local target, rank = math.random() * total, 1
  if target <= head[head_size] then
    local hi = head_size
    while rank < hi do
      local mid = math.floor((rank + hi) / 2)
      if head[mid] < target then rank = mid + 1 else hi = mid end
    end
  else
    -- The smallest rank whose harmonic number reaches the target: the estimate is off by one at most.
    rank = math.min(${links}, math.max(head_size + 1, math.floor(math.exp(target - gamma))))
    while rank > head_size + 1 and harmonic(rank - 1) >= target do rank = rank - 1 end
    while harmonic(rank) < target do rank = rank + 1 end
  end
  local link = ((rank - 1) * 999983) % ${links}
  return "/go/u" .. (link % ${users}) .. "/l" .. link
end`;
}

/** A server's Prometheus counters and gauges by name (labels ignored: the first sample of each name). */
export async function scrapeMetrics(url: string, token: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text();
  const values: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = /^([a-z_]+)(?:\{[^}]*\})? ([0-9.e+-]+)$/.exec(line);
    if (m && values[m[1]!] === undefined) values[m[1]!] = Number(m[2]);
  }
  return values;
}

/** Resident memory of a process now, in MB (Linux). */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return NaN;
  }
}

/** CPU seconds used so far by each thread of a process, by "tid:name" (Linux; the view writer is named "Worker"). */
export function threadCpuSeconds(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(
        `${tid}:${stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))}`,
        (Number(fields[11]) + Number(fields[12])) / 100,
      );
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/**
 * CPU µs per request between two samples: the request thread's, the busiest Worker thread's (the view writer's
 * under /go load), and the rest of the process's (the garbage collector's helpers, the allocator's scavenger, the
 * JIT compiler, the other Workers).
 */
export function cpuPerRequest(
  pid: number,
  before: Map<string, number>,
  after: Map<string, number>,
  requests: number,
): { request: number; writer: number; other: number } {
  const used = (key: string) => ((after.get(key)! - (before.get(key) ?? 0)) * 1e6) / requests;
  const main = [...after.keys()].find((key) => key.startsWith(`${pid}:`));
  const workers = [...after.keys()].filter((key) => key.endsWith(":Worker")).map(used);
  const request = main ? used(main) : NaN;
  const writer = workers.length ? Math.max(...workers) : NaN;
  const all = [...after.keys()].reduce((sum, key) => sum + used(key), 0);
  return { request, writer, other: all - request - (workers.length ? writer : 0) };
}
