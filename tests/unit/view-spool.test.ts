// The view writer's spool (src/views/view-spool.ts): a refused batch waits in the file, later batches queue
// behind it, all are stored in order once the store answers, a new spool on the same file (a restart) replays
// what is left, a record torn by a crash is cut off, and past the size limit views are dropped and counted; the
// file never holds a full client address, and the replayed views keep their truncated address and unique visitors.
import { afterAll, expect, test } from "bun:test";
import { appendFileSync, closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ViewBatchBuilder, type ViewBatch } from "../../src/views/view-batch.ts";
import { ViewSpool } from "../../src/views/view-spool.ts";
import { DailyVisitors } from "../../src/views/daily-visitors.ts";
import { sealBatch } from "../../src/views/view-seal.ts";
import { ViewStore } from "../../src/views/view-store.ts";
import { openSqlite } from "../../src/db/sqlite/connection.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { eventually } from "../helpers/eventually.ts";
import { createLogger } from "../../src/observability/log.ts";

const log = createLogger("text");

const dir = mkdtempSync(join(tmpdir(), "linkprev-spool-"));
const fullDisk = mkdtempSync(join(tmpdir(), "linkprev-spool-full-"));
let mounted = false;
afterAll(() => {
  if (mounted) Bun.spawnSync(["umount", "-l", fullDisk]);
  rmSync(fullDisk, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});
const isRoot = process.getuid?.() === 0;
if (!isRoot)
  console.warn("not root: the full-disk spool test is skipped (it mounts a size-limited tmpfs, which needs root)");

function batchOf(linkIds: number[]): ViewBatch {
  const builder = new ViewBatchBuilder();
  for (const linkId of linkIds)
    builder.add({
      linkId,
      userId: 1,
      isBot: false,
      platform: null,
      address: "203.0.113.9",
      userAgent: "UA",
      attribution: null,
      scan: false,
      at: 1_700_000_000_000,
    });
  return builder.take().batch;
}

const seal = (batch: ViewBatch) => sealBatch(batch, new DailyVisitors(Date.now));

/** A store that refuses while `down`, noting what it stored, by sequence. */
function flakyStore() {
  const state = { down: true, stored: [] as Array<{ seq: number; linkIds: number[] }> };
  const store = async (seq: number, batch: ViewBatch) => {
    if (state.down) throw new Error("database away");
    state.stored.push({ seq, linkIds: Array.from(batch.linkId.subarray(0, batch.size)) });
  };
  return { state, store };
}

test("refused batches wait in the file in order, later ones behind them, and are stored once the database answers", async () => {
  const path = join(dir, "order.bin");
  const { state, store } = flakyStore();
  const spool = new ViewSpool(path, 1 << 20, store, seal, log);
  expect(await spool.write(1, batchOf([1, 2]))).toBe("spooled");
  state.down = false;
  // The database answers again, but an earlier batch waits: this one goes behind it.
  expect(await spool.write(2, batchOf([3]))).toBe("spooled");
  await eventually(
    () =>
      expect(state.stored).toEqual([
        { seq: 1, linkIds: [1, 2] },
        { seq: 2, linkIds: [3] },
      ]),
    { timeoutMs: 5000 },
  );
  await eventually(() => expect(statSync(path).size).toBe(0));
  expect(await spool.write(3, batchOf([4]))).toBe("stored");
  await spool.close();
});

test("a new spool on the file (a restart) replays what was left, a torn last record cut off", async () => {
  const path = join(dir, "restart.bin");
  const first = flakyStore();
  const before = new ViewSpool(path, 1 << 20, first.store, seal, log);
  await before.write(7, batchOf([5]));
  await before.write(8, batchOf([6, 6]));
  await before.close();
  // A kill -9 in the middle of an append: half a record.
  appendFileSync(path, new Uint8Array([0, 0, 1, 0, 123]));
  const second = flakyStore();
  second.state.down = false;
  const after = new ViewSpool(path, 1 << 20, second.store, seal, log);
  await eventually(
    () =>
      expect(second.state.stored).toEqual([
        { seq: 7, linkIds: [5] },
        { seq: 8, linkIds: [6, 6] },
      ]),
    { timeoutMs: 5000 },
  );
  await eventually(() => expect(statSync(path).size).toBe(0));
  await after.close();
});

test("past VIEW_SPOOL_MAX_BYTES a batch is dropped and counted, never kept silently", async () => {
  const { store } = flakyStore();
  const spool = new ViewSpool(join(dir, "full.bin"), 600, store, seal, log);
  expect(await spool.write(1, batchOf([1, 2, 3]))).toBe("spooled");
  expect(await spool.write(2, batchOf(Array.from({ length: 50 }, (_, i) => i)))).toBe("dropped");
  expect(spool.dropped).toBe(50);
  await spool.close();
});

test("a spooled batch's file holds no full client address; replayed, its views keep the truncated one and count each visitor once", async () => {
  const path = join(dir, "linkprev.db");
  const setup = openSqlite(path);
  applyMigrations(setup);
  setup.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  setup.run("INSERT INTO workspaces (slug, name, personal_user_id) VALUES ('a', 'Personal', 1)");
  setup.run(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'one', 'https://e.eu', 't', 'd')",
  );
  setup.close();
  const sqlite = openSqlite(path);
  sqlite.run("PRAGMA foreign_keys = OFF");
  const store = new ViewStore(sqlite, Date.now);
  let down = true;
  const spoolPath = join(dir, "addresses.bin");
  const spool = new ViewSpool(
    spoolPath,
    1 << 20,
    async (seq, batch) => {
      if (down) throw new Error("database away");
      store.write(batch, false, seq);
    },
    (batch) => store.seal(batch),
    log,
  );
  const people = (addresses: string[]) => {
    const builder = new ViewBatchBuilder();
    for (const address of addresses)
      builder.add({
        linkId: 1,
        userId: 1,
        isBot: false,
        platform: null,
        address,
        userAgent: "Mozilla/5.0",
        attribution: "ref.example",
        scan: false,
        at: Date.now(),
      });
    return builder.take().batch;
  };

  // Three people, one of them twice and again in the next batch beside a neighbour of the same /24 (a second
  // person: uniques count full addresses, not stored ones), while the database is away.
  expect(await spool.write(1, people(["203.0.113.77", "2001:db8:1:2:3:4:5:6", "203.0.113.77"]))).toBe("spooled");
  expect(await spool.write(2, people(["203.0.113.77", "203.0.113.78"]))).toBe("spooled");
  const bytes = readFileSync(spoolPath).toString("latin1");
  expect(bytes).not.toContain("203.0.113.77");
  expect(bytes).not.toContain("203.0.113.78");
  expect(bytes).not.toContain("2001:db8:1:2");
  expect(bytes).toContain("203.0.113.0");

  down = false;
  await eventually(() => expect(statSync(spoolPath).size).toBe(0), { timeoutMs: 5000 });
  const audience = () => {
    store.write(null, true);
    return sqlite
      .query<{ human: number; uniques: number }, []>(
        "SELECT sum(human) AS human, sum(unique_humans) AS uniques FROM view_rollups",
      )
      .get();
  };
  expect(audience()).toEqual({ human: 5, uniques: 3 });
  // The same person after the outage, stored at once: still one visitor.
  expect(await spool.write(3, people(["203.0.113.77"]))).toBe("stored");
  expect(audience()).toEqual({ human: 6, uniques: 3 });
  expect(
    sqlite.query<{ ip: string; attribution: string }, []>("SELECT ip, attribution FROM views ORDER BY id").all(),
  ).toEqual([
    { ip: "203.0.113.0", attribution: "ref.example" },
    { ip: "2001:db8:1::", attribution: "ref.example" },
    { ip: "203.0.113.0", attribution: "ref.example" },
    { ip: "203.0.113.0", attribution: "ref.example" },
    { ip: "203.0.113.0", attribution: "ref.example" },
    { ip: "203.0.113.0", attribution: "ref.example" },
  ]);
  await spool.close();
  sqlite.close();
});

test.skipIf(!isRoot)(
  "batches a full disk kept in memory are written to the file on a graceful stop once there is room, and replayed in order",
  async () => {
    expect(Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", fullDisk]).exitCode).toBe(0);
    mounted = true;
    const path = join(fullDisk, "spool.bin");
    const first = flakyStore();
    const spool = new ViewSpool(path, 1 << 20, first.store, seal, log);
    expect(await spool.write(1, batchOf([1]))).toBe("spooled");
    // Fill the filesystem until it refuses another byte.
    const filler = join(fullDisk, "filler");
    const fd = openSync(filler, "w");
    try {
      for (const chunk = new Uint8Array(4096); ; ) writeSync(fd, chunk);
    } catch {
      closeSync(fd);
    }
    // Bigger than a page: the file's last page, partly used, cannot take it.
    const big = Array<number>(3000).fill(2);
    expect(await spool.write(2, batchOf(big))).toBe("spooled");
    expect(await spool.write(3, batchOf([3]))).toBe("spooled");
    rmSync(filler);
    await spool.close();
    const second = flakyStore();
    second.state.down = false;
    const after = new ViewSpool(path, 1 << 20, second.store, seal, log);
    await eventually(
      () =>
        expect(second.state.stored).toEqual([
          { seq: 1, linkIds: [1] },
          { seq: 2, linkIds: big },
          { seq: 3, linkIds: [3] },
        ]),
      { timeoutMs: 5000 },
    );
    await after.close();
  },
);
