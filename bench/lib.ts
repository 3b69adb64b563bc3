// Shared by the benchmarks: wrk (installed from Debian when absent), a seeded data directory, process helpers.
import { Database } from "bun:sqlite";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyMigrations } from "../src/db/migrate.ts";
import agents from "../tests/fixtures/crawler-agents.json" with { type: "json" };

export const root = join(import.meta.dir, "..");
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

/** A data directory with `users` users holding `links` links in all; returns the short paths. */
export function seedDataDir(links: number, users = 100): { dataDir: string; paths: string[] } {
  const dataDir = mkdtempSync(join(tmpdir(), "linkprev-bench-"));
  const sqlite = new Database(join(dataDir, "linkprev.db"), { create: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  applyMigrations(sqlite);
  const paths: string[] = [];
  sqlite.transaction(() => {
    const addUser = sqlite.query("INSERT INTO users (email, user_slug) VALUES (?, ?) RETURNING id");
    const addLink = sqlite.query("INSERT INTO links (user_id, link_slug, target_url, title, description, image_url) VALUES (?, ?, ?, ?, ?, ?)");
    for (let u = 0; u < users; u++) {
      const { id } = addUser.get(`bench${u}@example.com`, `u${u}`) as { id: number };
      for (let l = u; l < links; l += users) {
        addLink.run(id, `l${l}`, `https://example.com/article/${l}`, `Title ${l}`, `Description of link ${l}`, "/uploads/x.webp");
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
  const crawlers = Object.values(agents.crawlers).flat().filter((a) => a !== "");
  const file = join(mkdtempSync(join(tmpdir(), "linkprev-wrk-")), "script.lua");
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
  const out = run.stdout.toString();
  const grab = (re: RegExp) => re.exec(out)?.[1] ?? "NaN";
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(out);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    requests: Number(grab(/(\d+) requests in/)),
    rps: Number(grab(/Requests\/sec:\s+([\d.]+)/)),
    p50: toMs(grab(/50%\s+(\S+)/)),
    p99: toMs(grab(/99%\s+(\S+)/)),
    errors: (errors ? Number(errors[1]) : 0) + (socketErrors ? socketErrors.slice(1).map(Number).reduce((a, b) => a + b, 0) : 0),
  };
}

export async function waitForHttp(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url, { redirect: "manual" });
      return;
    } catch {
      await Bun.sleep(50);
    }
  }
  throw new Error(`${url} did not answer`);
}

export const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
