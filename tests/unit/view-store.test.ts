// The writer's store on a real SQLite file: rows at once, rollups folded in, a crash caught up at start.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../src/db/sqlite/connection.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { ViewBatchBuilder } from "../../src/views/view-batch.ts";
import { ViewStore } from "../../src/views/view-store.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A database with one user owning links 1..3; returns its path. */
function database(): string {
  const dir = mkdtempSync(join(tmpdir(), "linkprev-store-"));
  dirs.push(dir);
  const path = join(dir, "linkprev.db");
  const sqlite = openSqlite(path);
  applyMigrations(sqlite);
  sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  sqlite.run("INSERT INTO workspaces (slug, name, personal_user_id) VALUES ('a', 'Personal', 1)");
  for (const slug of ["one", "two", "three"]) {
    sqlite.run(
      "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, ?, 'https://e.eu', 't', 'd')",
      [slug],
    );
  }
  sqlite.close();
  return path;
}

function writer(path: string) {
  const sqlite = openSqlite(path);
  sqlite.run("PRAGMA foreign_keys = OFF");
  return { sqlite, store: new ViewStore(sqlite, Date.now) };
}

/**
 * `n` views of `linkId`, every third one a crawler; the people come from a few addresses (so some come back) and
 * every fourth view came through the QR code (a crawler's marker is dropped on the request thread, src/go/record-view.ts).
 */
function batch(linkId: number, n: number) {
  const builder = new ViewBatchBuilder();
  for (let i = 0; i < n; i++) {
    const bot = i % 3 === 0;
    const address = `203.0.113.${i % 7}`;
    builder.add({
      linkId,
      userId: 1,
      isBot: bot,
      platform: bot ? "x" : null,
      address,
      userAgent: bot ? "Twitterbot/1.0" : "Mozilla/5.0",
      attribution: null,
      scan: !bot && i % 4 === 0,
      at: Date.now(),
    });
  }
  return builder.take().batch;
}

function counts(path: string) {
  const sqlite = openSqlite(path);
  const rows = sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM views").get()!.n;
  const rolled = sqlite
    .query<{ n: number }, []>("SELECT coalesce(sum(human + bot), 0) AS n FROM view_rollups")
    .get()!.n;
  const byPlatform = sqlite
    .query<{ platform: string; human: number; bot: number }, []>(
      "SELECT platform, sum(human) AS human, sum(bot) AS bot FROM view_rollups GROUP BY platform ORDER BY platform",
    )
    .all();
  sqlite.close();
  return { rows, rolled, byPlatform };
}

/** People in the stored rows, in the people's rollups and in the referrer rollups. */
function referrals(path: string) {
  const sqlite = openSqlite(path);
  const n = (query: string) => sqlite.query<{ n: number }, []>(query).get()!.n;
  const result = {
    stored: n("SELECT count(*) AS n FROM views WHERE is_bot = 0"),
    rolled: n("SELECT coalesce(sum(human), 0) AS n FROM view_rollups"),
    referred: n("SELECT coalesce(sum(human), 0) AS n FROM referrer_rollups"),
  };
  sqlite.close();
  return result;
}

/**
 * The people's rollup rows whose unique visitors differ from the day's stored hashes or whose scans differ from
 * the stored scan rows (0 when exact), and the totals.
 */
function audience(path: string) {
  const sqlite = openSqlite(path);
  const mismatched = sqlite
    .query<{ n: number }, []>(
      `SELECT count(*) AS n FROM view_rollups r WHERE r.platform = '' AND (
       r.unique_humans != (SELECT count(*) FROM view_visitors v WHERE v.link_id = r.link_id AND v.day = r.day)
       OR r.scans != (SELECT count(*) FROM views w WHERE w.link_id = r.link_id AND w.is_bot = 0 AND w.scan = 1
                        AND strftime('%Y-%m-%d', w.timestamp / 1000, 'unixepoch') = r.day))`,
    )
    .get()!.n;
  const totals = sqlite
    .query<{ uniques: number; scans: number }, []>(
      "SELECT coalesce(sum(unique_humans), 0) AS uniques, coalesce(sum(scans), 0) AS scans FROM view_rollups",
    )
    .get()!;
  sqlite.close();
  return { mismatched, ...totals };
}

test("rows are stored at once; the rollups follow when folded", () => {
  const path = database();
  const { sqlite, store } = writer(path);
  store.write(batch(1, 30), false);
  expect(counts(path)).toMatchObject({ rows: 30, rolled: 0 });
  expect(store.behind).toBe(true);
  store.write(batch(2, 6), true);
  expect(counts(path)).toEqual({
    rows: 36,
    rolled: 36,
    byPlatform: [
      { platform: "", human: 24, bot: 0 },
      { platform: "x", human: 0, bot: 12 },
    ],
  });
  // Link 1's people came from 7 addresses (i % 7 over 30 views, the crawlers' i % 3 = 0 aside: all 7 remain),
  // link 2's from 4 (i = 1, 2, 4, 5); scans at i % 4 = 0 without i % 3 = 0: 4, 8, 16, 20, 28 and 4.
  expect(audience(path)).toEqual({ mismatched: 0, uniques: 7 + 4, scans: 5 + 1 });
  expect(store.behind).toBe(false);
  sqlite.close();
});

test("what a crash left beyond the mark is folded in at the next start, once", () => {
  const path = database();
  const first = writer(path);
  first.store.write(batch(1, 10), true);
  first.store.write(batch(1, 9), false);
  first.store.write(batch(2, 6), false);
  first.sqlite.close(); // killed before folding: 15 rows stored, not in the rollups
  expect(counts(path)).toMatchObject({ rows: 25, rolled: 10 });
  // Referrers are folded with the rollups: only the first batch's people are in them yet.
  expect(referrals(path).referred).toBe(referrals(path).rolled);
  expect(referrals(path).referred).toBeLessThan(referrals(path).stored);
  expect(audience(path)).toMatchObject({ uniques: 5 });

  const second = writer(path);
  expect(counts(path)).toMatchObject({ rows: 25, rolled: 25 });
  // The unfolded rows' referrers are counted from the stored rows, once.
  expect(referrals(path).referred).toBe(referrals(path).stored);
  // Link 1's people came from 5 addresses (i = 1, 2, 4, 5, 7, 8 → 1, 2, 4, 5, 0, 1), link 2's from 4: the
  // hashes stored with the unfolded rows are counted in.
  expect(audience(path)).toMatchObject({ mismatched: 0, uniques: 5 + 4 });
  second.store.write(batch(1, 3), true);
  expect(counts(path)).toMatchObject({ rows: 28, rolled: 28 });
  expect(referrals(path).referred).toBe(referrals(path).stored);
  // The second process has its own salt: the returning visitors count once more today (decision 0010).
  expect(audience(path)).toMatchObject({ mismatched: 0, uniques: 5 + 4 + 2 });
  second.sqlite.close();
});

test("two servers on one data directory never give a view id twice", () => {
  const path = database();
  const a = writer(path);
  const b = writer(path);
  for (let i = 0; i < 5; i++) {
    a.store.write(batch(1, 7), false);
    b.store.write(batch(2, 5), false);
  }
  a.store.write(null, true);
  b.store.write(null, true);
  expect(counts(path)).toMatchObject({ rows: 60, rolled: 60 });
  expect(audience(path).mismatched).toBe(0);
  a.sqlite.close();
  b.sqlite.close();
});

test("views of a link deleted with its owner meanwhile leave neither rows nor rollups", () => {
  const path = database();
  const { sqlite, store } = writer(path);
  store.write(batch(3, 4), false);
  const owner = openSqlite(path);
  owner.run("DELETE FROM links WHERE id = 3"); // foreign keys on: its views go with it
  owner.close();
  store.write(batch(3, 2), false);
  store.write(batch(1, 5), true);
  expect(counts(path)).toMatchObject({ rows: 5, rolled: 5 });
  sqlite.close();
});

test("a write that fails halfway leaves the rollups counting only the rows that were stored", () => {
  const path = database();
  const { sqlite, store } = writer(path);
  store.write(batch(1, 3), false);
  // The disk fails on the second link's row, after the first link's views were stored and counted.
  sqlite.run(
    "CREATE TEMP TRIGGER failing_disk BEFORE INSERT ON views WHEN NEW.link_id = 2 BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
  );
  const builder = new ViewBatchBuilder();
  for (const linkId of [1, 1, 2])
    builder.add({
      linkId,
      userId: 1,
      isBot: false,
      platform: null,
      address: "",
      userAgent: "Mozilla/5.0",
      attribution: null,
      scan: false,
      at: Date.now(),
    });
  expect(() => store.write(builder.take().batch, false)).toThrow("disk I/O error");
  sqlite.run("DROP TRIGGER failing_disk");

  store.write(batch(2, 6), true);
  expect(counts(path)).toEqual({
    rows: 9,
    rolled: 9,
    byPlatform: [
      { platform: "", human: 6, bot: 0 },
      { platform: "x", human: 0, bot: 3 },
    ],
  });
  expect(referrals(path)).toEqual({ stored: 6, rolled: 6, referred: 6 });
  expect(audience(path)).toMatchObject({ mismatched: 0 });
  store.write(batch(1, 3), true);
  expect(counts(path)).toMatchObject({ rows: 12, rolled: 12 });
  expect(audience(path)).toMatchObject({ mismatched: 0, uniques: 6 });
  // The failed batch's visitor was never stored: their next view is their first.
  const again = new ViewBatchBuilder();
  again.add({
    linkId: 1,
    userId: 1,
    isBot: false,
    platform: null,
    address: "",
    userAgent: "Mozilla/5.0",
    attribution: null,
    scan: false,
    at: Date.now(),
  });
  store.write(again.take().batch, true);
  expect(audience(path)).toEqual({ mismatched: 0, uniques: 7, scans: 1 });
  sqlite.close();
});

test("past the writer's memo of 100,000 visitors, a returning visitor is still counted once", () => {
  const path = database();
  const { sqlite, store } = writer(path);
  const visitors = 120_000;
  const viewAll = () => {
    for (let first = 0; first < visitors; first += 5000) {
      const builder = new ViewBatchBuilder();
      for (let v = first; v < first + 5000; v++) {
        builder.add({
          linkId: 1 + (v % 2),
          userId: 1,
          isBot: false,
          platform: null,
          address: `10.${v >> 16}.${(v >> 8) & 255}.${v & 255}`,
          userAgent: "Mozilla/5.0",
          attribution: null,
          scan: false,
          at: Date.now(),
        });
      }
      store.write(builder.take().batch, false);
    }
  };
  viewAll();
  viewAll();
  store.write(null, true);
  expect(audience(path)).toEqual({ mismatched: 0, uniques: visitors, scans: 0 });
  expect(counts(path).rows).toBe(2 * visitors);
  sqlite.close();
});

/** One crawler view of `linkId` from `platform` at `at`. */
function fetchAt(builder: ViewBatchBuilder, linkId: number, platform: string, at: number) {
  builder.add({
    linkId,
    userId: 1,
    isBot: true,
    platform,
    address: "",
    userAgent: `${platform}-bot`,
    attribution: null,
    scan: false,
    at,
  });
}

function lastAt(path: string) {
  const sqlite = openSqlite(path);
  const rows = sqlite
    .query<{ link: number; platform: string; lastAt: number | null }, []>(
      "SELECT link_id AS link, platform, max(last_at) AS lastAt FROM view_rollups GROUP BY 1, 2 ORDER BY 1, 2",
    )
    .all();
  sqlite.close();
  return rows;
}

test("the rollups keep each platform's newest view time across folds, out-of-order batches and a crash catch-up", () => {
  const path = database();
  const t = Date.UTC(2026, 0, 15, 12);
  const first = writer(path);
  let builder = new ViewBatchBuilder();
  fetchAt(builder, 1, "x", t + 5);
  fetchAt(builder, 1, "x", t + 9);
  fetchAt(builder, 1, "x", t + 7);
  fetchAt(builder, 1, "facebook", t + 3);
  first.store.write(builder.take().batch, false);
  builder = new ViewBatchBuilder();
  fetchAt(builder, 1, "facebook", t + 4);
  fetchAt(builder, 2, "x", t + 1);
  first.store.write(builder.take().batch, true);
  expect(lastAt(path)).toEqual([
    { link: 1, platform: "facebook", lastAt: t + 4 },
    { link: 1, platform: "x", lastAt: t + 9 },
    { link: 2, platform: "x", lastAt: t + 1 },
  ]);

  // An older view folded later does not move it back; a newer one does.
  builder = new ViewBatchBuilder();
  fetchAt(builder, 1, "x", t + 2);
  fetchAt(builder, 1, "facebook", t + 20);
  first.store.write(builder.take().batch, true);
  expect(lastAt(path).slice(0, 2)).toEqual([
    { link: 1, platform: "facebook", lastAt: t + 20 },
    { link: 1, platform: "x", lastAt: t + 9 },
  ]);

  // Stored but not folded (a crash): the next start folds the rows in SQL with the same max.
  builder = new ViewBatchBuilder();
  fetchAt(builder, 1, "x", t + 30);
  fetchAt(builder, 2, "x", t);
  first.store.write(builder.take().batch, false);
  first.sqlite.close();
  const second = writer(path);
  expect(lastAt(path)).toEqual([
    { link: 1, platform: "facebook", lastAt: t + 20 },
    { link: 1, platform: "x", lastAt: t + 30 },
    { link: 2, platform: "x", lastAt: t + 1 },
  ]);
  second.sqlite.close();
});
