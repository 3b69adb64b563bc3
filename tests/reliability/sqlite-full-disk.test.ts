// SQLite on a full filesystem (a small tmpfs the test mounts, as root) under a paced load of people, crawlers and API
// writes: writes answer 503 (never 500) while the disk is full, views wait (the spool cannot be written either, so
// in memory), and once space is freed every served view is stored exactly once, every acknowledged link is there,
// and PRAGMA integrity_check passes. A read-only data directory (a read-only bind mount) is a clear error at start.
// Skipped, saying why, when not root (mounting needs it).
import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eventually } from "../helpers/eventually.ts";
import { startNode, stopNode, type Node } from "../helpers/nodes.ts";
import { pacedLoad, unexpectedStatuses } from "../helpers/paced-load.ts";
import { acceptTerms } from "../helpers/server.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
const root = process.getuid?.() === 0;
if (!root) console.warn("not root: the full-disk test is skipped (it mounts a size-limited tmpfs, which needs root)");

const mountPoint = mkdtempSync(join(tmpdir(), "linkprev-full-"));
let mounted = false;
let node: Node | null = null;
afterAll(async () => {
  if (node) await stopNode(node, { signal: "SIGKILL", keepData: true });
  if (mounted) Bun.spawnSync(["umount", "-l", mountPoint]);
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Fills the filesystem until it refuses another byte; returns the filler's path. */
function fill(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  const chunk = new Uint8Array(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // ENOSPC: full
  }
  try {
    for (;;) writeSync(fd, chunk.subarray(0, 512));
  } catch {}
  closeSync(fd);
  return path;
}

test.skipIf(!root)(
  "a full disk: writes answer 503, views wait, and once space is freed every view is stored once and the database is intact",
  async () => {
    const mount = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=24m", "tmpfs", mountPoint]);
    expect(mount.exitCode).toBe(0);
    mounted = true;
    const dataDir = join(mountPoint, "data");
    node = await startNode({ VIEW_FLUSH_MS: "100", APP_WORKERS: "1" }, dataDir);
    const token = Bun.spawnSync([
      process.execPath,
      cli,
      "admin",
      "token",
      "create",
      "--email",
      "ops@example.com",
      "--data",
      dataDir,
    ])
      .stdout.toString()
      .trim();
    await acceptTerms(node.url, token);
    const linkSlugs = ["one", "two"];
    let userSlug = "";
    for (const slug of linkSlugs) {
      const created = await fetch(`${node.url}/api/links`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          targetUrl: `https://example.com/${slug}`,
          title: slug,
          description: "d",
          customLinkSlug: slug,
        }),
      });
      expect(created.status).toBe(201);
      userSlug = new URL(((await created.json()) as { shortUrl: string }).shortUrl).pathname.split("/")[2]!;
    }
    const running = pacedLoad({
      baseUrl: () => node!.url,
      token,
      userSlug,
      linkSlugs,
      goPerSecond: 50,
      writesPerSecond: 4,
    });
    await Bun.sleep(500);
    const filler = fill(mountPoint);
    // Full: an API write is a 503, never a 500.
    await eventually(
      async () => {
        const write = await fetch(`${node!.url}/api/links`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ targetUrl: "https://example.com/full", title: "full", description: "d" }),
        });
        expect(write.status).toBe(503);
        expect(write.headers.get("retry-after")).toBe("5");
      },
      { what: "a write on the full disk to answer 503" },
    );
    await Bun.sleep(2000);
    rmSync(filler);
    await Bun.sleep(1000);
    const served = await running.stop();
    expect(unexpectedStatuses(served)).toEqual([]);
    expect(served.statuses.get("write 503") ?? 0).toBeGreaterThan(0);

    const db = new Database(join(dataDir, "linkprev.db"), { readonly: true });
    try {
      const count = () => {
        const rows = db.query<{ n: number }, []>("SELECT count(*) AS n FROM views").get()!.n;
        const { people, crawlers } = db
          .query<{ people: number; crawlers: number }, []>(
            "SELECT coalesce(sum(human), 0) AS people, coalesce(sum(bot), 0) AS crawlers FROM view_rollups",
          )
          .get()!;
        return { rows, people, crawlers };
      };
      const expected = { rows: served.people + served.crawlers, people: served.people, crawlers: served.crawlers };
      await eventually(() => expect(count()).toEqual(expected), {
        timeoutMs: 20_000,
        intervalMs: 200,
        what: "every served view stored",
      });
      await Bun.sleep(1000);
      expect(count()).toEqual(expected);
      const slugs = db
        .query<{ slug: string }, []>("SELECT link_slug AS slug FROM links")
        .all()
        .map((r) => r.slug);
      for (const slug of served.created) expect(slugs).toContain(slug);
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
    } finally {
      db.close();
    }
  },
  60_000,
);

test.skipIf(!root)("a read-only data directory: the server says so and exits 1, the database untouched", async () => {
  const work = mkdtempSync(join(tmpdir(), "linkprev-ro-"));
  const [data, readOnly] = [join(work, "data"), join(work, "ro")];
  mkdirSync(data);
  mkdirSync(readOnly);
  expect(Bun.spawnSync([process.execPath, cli, "admin", "migrate", "--data", data]).exitCode).toBe(0);
  expect(Bun.spawnSync(["mount", "--bind", data, readOnly]).exitCode).toBe(0);
  try {
    expect(Bun.spawnSync(["mount", "-o", "remount,ro,bind", readOnly]).exitCode).toBe(0);
    const serve = Bun.spawnSync([process.execPath, cli, "serve", "--port", "0", "--data", readOnly], {
      timeout: 20_000,
    });
    expect(serve.exitCode).toBe(1);
    expect(serve.stderr.toString()).toContain(`The data directory ${readOnly} cannot be written`);
  } finally {
    Bun.spawnSync(["umount", readOnly]);
  }
  const db = new Database(join(data, "linkprev.db"), { readonly: true });
  expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
  db.close();
  rmSync(work, { recursive: true, force: true });
});
