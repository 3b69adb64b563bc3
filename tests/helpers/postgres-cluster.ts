// Throwaway PostgreSQL clusters for the tests: one `initdb` + `pg_ctl start` in a short /tmp directory, listening on a
// Unix socket only (no TCP port to collide with), durability switched off, removed again by stop().
// As root (CI) the cluster belongs to the `postgres` system user, because initdb and postgres refuse to run as root;
// otherwise it belongs to the current user.
//
// Connecting with Bun.SQL (Bun 1.4.5), measured against such a cluster:
//   new Bun.SQL({ url: "postgres://postgres@localhost/DBNAME?host=/tmp/lp-pg-xxxxxx", max: 1 })
// works as it is: `?host=` naming a directory selects the socket `<dir>/.s.PGSQL.5432` (the form libpq/psql use too);
// so do `?path=<dir>` and `?socket=<dir>`. No options helper is needed. Always pass `url`: without one, Bun starts from
// DATABASE_URL/PG* in the environment and `{ hostname: dir }` / `{ path: dir }` only change single fields of that
// (with DATABASE_URL=…:1/x set, `{ path: dir }` dialled `<dir>/.s.PGSQL.1`).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, chownSync } from "node:fs";
import { join } from "node:path";
import { eventually, isTrue } from "./eventually.ts";

const PG_ROOT = "/usr/lib/postgresql";
/** Prefix of every cluster directory; kept short since a socket path may have at most 107 bytes. */
const DIR_PREFIX = "/tmp/lp-pg-";
/** A cluster still running after this long is taken for a leftover, whatever its owner looks like. */
const MAX_CLUSTER_AGE_MS = 3 * 60 * 60 * 1000;
/** A directory without postmaster.pid (initdb interrupted, stop without rm) is removed after this long. */
const MAX_HALF_MADE_AGE_MS = 10 * 60 * 1000;
/** Records which process started the cluster, so a later run can tell an orphan from a concurrent run's cluster. */
const OWNER_FILE = "owner.pid";

export type ThrowawayCluster = {
  /** The directory holding data/, log and the socket `.s.PGSQL.5432`. */
  socketDir: string;
  /** `postgres://postgres@localhost/postgres?host=<socketDir>` — the maintenance database of the cluster. */
  url: string;
  stop(): Promise<void>;
  /** Stops the server (`-m fast`, keeping its data), starts it again, or restarts it: the fault tests' outages. */
  ctl(action: "stop" | "start" | "restart"): Promise<void>;
  /** The same as stop(), for `process.on("exit")`, which cannot await. */
  stopSync(): void;
};

/** The newest `/usr/lib/postgresql/<version>/bin` that has initdb (Debian's layout), or null. */
export function findPgBin(): string | null {
  let versions: string[];
  try {
    versions = readdirSync(PG_ROOT);
  } catch {
    return null;
  }
  const usable = versions
    .filter((v) => existsSync(join(PG_ROOT, v, "bin", "initdb")) && existsSync(join(PG_ROOT, v, "bin", "pg_ctl")))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  const newest = usable.at(-1);
  return newest === undefined ? null : join(PG_ROOT, newest, "bin");
}

const isRoot = () => process.getuid?.() === 0;

/** Environment for the PostgreSQL commands: without PG* variables (PGPORT would move the socket, PGDATA …). */
function pgEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith("PG")) env[key] = value;
  return env;
}

/** argv for a PostgreSQL command: through `runuser -u postgres --` when running as root. */
function asClusterOwner(argv: string[]): string[] {
  if (!isRoot()) return argv;
  const runuser = Bun.which("runuser") ?? "/usr/sbin/runuser";
  return [runuser, "-u", "postgres", "--", ...argv];
}

function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith("postgres:"));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error(
      "Running as root needs the 'postgres' system user to own the test cluster (Debian's postgresql package creates it)",
    );
  }
  return { uid: Number(uid), gid: Number(gid) };
}

async function run(argv: string[], cwd: string): Promise<{ ok: boolean; output: string }> {
  const proc = Bun.spawn(asClusterOwner(argv), { cwd, env: pgEnv(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { ok: code === 0, output: (stdout + stderr).trim() };
}

function runSync(argv: string[], cwd: string): boolean {
  return (
    Bun.spawnSync(asClusterOwner(argv), { cwd, env: pgEnv(), stdin: "ignore", stdout: "ignore", stderr: "ignore" })
      .exitCode === 0
  );
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, belongs to someone else
  }
}

function readPid(file: string): number | null {
  try {
    const pid = Number(readFileSync(file, "utf8").split("\n", 1)[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** True when `pid` is the postmaster of `dataDir` (guards against a pid reused by an unrelated process). */
function isPostmasterOf(pid: number, dataDir: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes(dataDir);
  } catch {
    return false;
  }
}

/**
 * Removes what killed runs left behind under /tmp/lp-pg-*: clusters whose postmaster is gone, whose owning process
 * is gone, or that have run for hours; and half-made directories older than a few minutes. A cluster whose postmaster
 * and owner are both alive (a concurrent run) is never touched.
 */
export async function sweepLeftoverClusters(): Promise<number> {
  let entries: string[];
  try {
    entries = readdirSync("/tmp").filter((name) => name.startsWith("lp-pg-"));
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of entries) {
    const dir = join("/tmp", name);
    const dataDir = join(dir, "data");
    try {
      // A run still alive may have stopped or be restarting its cluster (tests/reliability/postgres-faults.test.ts):
      // between the postmaster's exit and its pid file's removal, the checks below would take it for a leftover.
      const starter = readPid(join(dir, OWNER_FILE));
      if (
        starter !== null &&
        starter !== process.pid &&
        isAlive(starter) &&
        Date.now() - statSync(dir).mtimeMs < MAX_CLUSTER_AGE_MS
      )
        continue;
      const postmaster = readPid(join(dataDir, "postmaster.pid"));
      if (postmaster === null) {
        if (Date.now() - statSync(dir).mtimeMs < MAX_HALF_MADE_AGE_MS) continue; // maybe a concurrent run in initdb
      } else if (isAlive(postmaster) && isPostmasterOf(postmaster, dataDir)) {
        const owner = readPid(join(dir, OWNER_FILE));
        const age = Date.now() - statSync(join(dataDir, "postmaster.pid")).mtimeMs;
        if ((owner === null || isAlive(owner)) && age < MAX_CLUSTER_AGE_MS) continue; // a live cluster of another run
        try {
          process.kill(postmaster, "SIGQUIT"); // what `pg_ctl -m immediate stop` sends
        } catch {
          continue; // not ours to stop (another user's cluster)
        }
        // A zombie has an empty cmdline, so this also ends when the postmaster has exited but is not reaped yet.
        await eventually(() => isTrue(!isPostmasterOf(postmaster, dataDir), "the postmaster gone"), {
          timeoutMs: 5000,
          intervalMs: 50,
        }).catch(() => {});
        if (isPostmasterOf(postmaster, dataDir)) continue;
      }
      rmSync(dir, { recursive: true, force: true });
      removed++;
    } catch {
      // Raced with its owner removing it, or not ours: leave it.
    }
  }
  return removed;
}

/**
 * Starts a new cluster in `/tmp/lp-pg-XXXXXX` (about 1 s: initdb ~0.5 s, start ~0.1 s) after sweeping leftovers of
 * killed runs. The cluster accepts `postgres` without a password (trust) on its socket only.
 */
export async function startThrowawayCluster(): Promise<ThrowawayCluster> {
  const bin = findPgBin();
  if (bin === null)
    throw new Error(`PostgreSQL is not installed (no ${PG_ROOT}/*/bin/initdb); run: node scripts/ensure-postgres.mjs`);
  await sweepLeftoverClusters();

  const dir = mkdtempSync(DIR_PREFIX);
  const dataDir = join(dir, "data");
  let options = "";
  try {
    await Bun.write(join(dir, OWNER_FILE), `${process.pid}\n`);
    if (isRoot()) {
      const { uid, gid } = postgresIds();
      chownSync(dir, uid, gid);
    }
    const initdb = [join(bin, "initdb"), "-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"];
    let init = await run([...initdb, "--locale=C.UTF-8"], dir);
    if (!init.ok) {
      rmSync(dataDir, { recursive: true, force: true });
      init = await run([...initdb, "--locale=C"], dir);
    }
    if (!init.ok) throw new Error(`initdb failed:\n${init.output}`);

    options = `-c listen_addresses='' -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    const start = await run(
      [join(bin, "pg_ctl"), "-D", dataDir, "-l", join(dir, "log"), "-w", "-o", options, "start"],
      dir,
    );
    if (!start.ok) {
      let log = "";
      try {
        log = readFileSync(join(dir, "log"), "utf8");
      } catch {}
      throw new Error(`pg_ctl start failed:\n${start.output}\n${log}`);
    }
  } catch (error) {
    runSync([join(bin, "pg_ctl"), "-D", dataDir, "-m", "immediate", "-w", "stop"], "/");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  const stopArgv = [join(bin, "pg_ctl"), "-D", dataDir, "-m", "immediate", "-w", "stop"];
  let stopped = false;
  return {
    async ctl(action) {
      const argv = [
        join(bin, "pg_ctl"),
        "-D",
        dataDir,
        "-l",
        join(dir, "log"),
        "-w",
        ...(action === "stop"
          ? ["-m", "fast"]
          : action === "restart"
            ? ["-m", "fast", "-o", options]
            : ["-o", options]),
        action,
      ];
      const done = await run(argv, dir);
      if (!done.ok) throw new Error(`pg_ctl ${action} failed:\n${done.output}`);
    },
    socketDir: dir,
    url: `postgres://postgres@localhost/postgres?host=${dir}`,
    async stop() {
      if (stopped) return;
      stopped = true;
      await run(stopArgv, "/");
      rmSync(dir, { recursive: true, force: true });
    },
    stopSync() {
      if (stopped) return;
      stopped = true;
      runSync(stopArgv, "/");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `lp_<16 hex digits>`: a fresh database name. */
export function randomDatabaseName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `lp_${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

function checkName(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new Error(`Not a database name for the tests: ${JSON.stringify(name)}`);
  return name;
}

/** The URL of database `name` on the cluster of `clusterUrl` (same user and socket). */
export function databaseUrl(clusterUrl: string, name: string): string {
  const url = new URL(clusterUrl);
  url.pathname = `/${checkName(name)}`;
  return url.href;
}

async function withMaintenanceClient<T>(clusterUrl: string, body: (sql: Bun.SQL) => Promise<T>): Promise<T> {
  const sql = new Bun.SQL({ url: clusterUrl, max: 1 });
  try {
    return await body(sql);
  } finally {
    await sql.close();
  }
}

/**
 * Creates database `name` (optionally as a copy of `template`, which must have no open connection) and returns its
 * URL. Copying a small migrated template takes 12–24 ms on these clusters.
 */
export async function createDatabase(clusterUrl: string, name: string, template?: string): Promise<string> {
  const from = template === undefined ? "" : ` TEMPLATE "${checkName(template)}"`;
  await withMaintenanceClient(clusterUrl, (sql) => sql.unsafe(`CREATE DATABASE "${checkName(name)}"${from}`));
  return databaseUrl(clusterUrl, name);
}

/** Drops database `name` if it exists, ending any connection still open to it. */
export async function dropDatabase(clusterUrl: string, name: string): Promise<void> {
  await withMaintenanceClient(clusterUrl, (sql) =>
    sql.unsafe(`DROP DATABASE IF EXISTS "${checkName(name)}" WITH (FORCE)`),
  );
}
