// The crawler fetch record stays bounded (docs/decisions/0066): a link keeps its newest 1,000 fetches (up to 100
// more between trims), nothing older than 90 days, and a fetch of a deleted link is not stored. The counts by
// verification ride on the rollups: folded in, and counted again from the rows after a crash.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FETCH_RECORD_MS, FETCHES_PER_LINK, type CrawlerFetchRow } from "../../src/db/crawler-fetch-rows.ts";
import { openSqlite } from "../../src/db/sqlite/connection.ts";
import { prepareCrawlerFetches } from "../../src/db/sqlite/crawler-fetches.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { FetchTrimSchedule } from "../../src/views/crawler-fetches.ts";
import { verifyBatch } from "../../src/views/crawler-verification.ts";
import { ViewBatchBuilder } from "../../src/views/view-batch.ts";
import { ViewStore } from "../../src/views/view-store.ts";

const dir = mkdtempSync(join(tmpdir(), "linkprev-fetches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function database() {
  const sqlite = openSqlite(join(dir, `${crypto.randomUUID()}.db`));
  applyMigrations(sqlite);
  sqlite.run("PRAGMA foreign_keys = OFF");
  sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  for (const slug of ["one", "two"])
    sqlite.run(
      "INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, ?, 'https://e.eu', 't', 'd')",
      [slug],
    );
  return sqlite;
}

const fetchOf = (linkId: number, at: number): CrawlerFetchRow => ({
  linkId,
  at,
  platform: "x",
  verification: "verified",
  version: 1,
  rendition: "x",
  status: 200,
  bytes: 2000,
  ms: 0.3,
});

/** Stores `rows` batch by batch as the writer does (each batch queued, then moved in by a fold), trims included. */
function write(sqlite: ReturnType<typeof database>, batches: CrawlerFetchRow[][]) {
  const record = prepareCrawlerFetches(sqlite);
  const trims = new FetchTrimSchedule();
  for (const rows of batches) {
    record.store(rows);
    record.move();
    const due = trims.due(rows);
    record.trim(due.linkIds, due.before);
  }
}

const stored = (sqlite: ReturnType<typeof database>, linkId: number) =>
  sqlite
    .query<{ at: number }, [number]>("SELECT at FROM crawler_fetches WHERE link_id = ? ORDER BY id")
    .all(linkId)
    .map((row) => row.at);

test("a link keeps its newest fetches: never fewer than 1,000, at most 100 more between trims", () => {
  const sqlite = database();
  const now = Date.now();
  const batches = Array.from({ length: 25 }, (_, b) =>
    Array.from({ length: 50 }, (_, i) => fetchOf(1, now + b * 50 + i)),
  );
  write(sqlite, batches);
  const kept = stored(sqlite, 1);
  expect(kept.length).toBeGreaterThanOrEqual(FETCHES_PER_LINK);
  expect(kept.length).toBeLessThanOrEqual(FETCHES_PER_LINK + 100);
  expect(kept.at(-1)).toBe(now + 1249);
  expect(kept[0]).toBe(now + 1250 - kept.length);
});

test("fetches past 90 days go; a deleted link's fetches are not stored", () => {
  const sqlite = database();
  const now = Date.now();
  sqlite.run("DELETE FROM links WHERE id = 2");
  write(sqlite, [[fetchOf(1, now - FETCH_RECORD_MS - 5000), fetchOf(2, now - 10)], [fetchOf(1, now)]]);
  expect(stored(sqlite, 1)).toEqual([now]);
  expect(stored(sqlite, 2)).toEqual([]);
});

test("the rollups count each platform's views by verification, folded and after a crash alike", () => {
  const sqlite = database();
  const rollup = () =>
    sqlite
      .query<{ bot: number; verified: number; unverified: number; unverifiable: number }, []>(
        "SELECT sum(bot) AS bot, sum(verified) AS verified, sum(unverified) AS unverified, sum(unverifiable) AS unverifiable FROM view_rollups WHERE platform = 'x'",
      )
      .get();
  const batch = () => {
    const builder = new ViewBatchBuilder();
    const view = { linkId: 1, userId: 1, isBot: true, platform: "x", userAgent: "Twitterbot/1.0", attribution: null };
    const fetch = { ...view, scan: false, at: Date.now(), rendition: "x", status: 200, bytes: 900, ms: 0.2 };
    builder.add({ ...fetch, address: "199.16.156.1" });
    builder.add({ ...fetch, address: "81.2.69.142" });
    builder.add({
      ...fetch,
      isBot: false,
      platform: null,
      userAgent: "Mozilla/5.0",
      rendition: null,
      address: "104.244.42.1",
    });
    const { batch } = builder.take();
    verifyBatch(batch);
    return batch;
  };
  new ViewStore(sqlite, Date.now).write(batch(), true);
  expect(rollup()).toEqual({ bot: 3, verified: 2, unverified: 1, unverifiable: 0 });
  // Stored, not folded (a crash): the next start counts the rows again, verification included.
  new ViewStore(sqlite, Date.now).write(batch(), false);
  new ViewStore(sqlite, Date.now);
  expect(rollup()).toEqual({ bot: 6, verified: 4, unverified: 2, unverifiable: 0 });
});
