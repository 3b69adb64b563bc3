// link.clicked counts on the SQLite writer's connection: stored in each view batch's transaction, once per batch id,
// and turned into one outbox event per link when the window closes.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sqliteClickOutbox } from "../../src/db/sqlite/click-outbox.ts";
import { openSqlite } from "../../src/db/sqlite/connection.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { ClickEvents } from "../../src/views/click-events.ts";
import { ViewBatchBuilder } from "../../src/views/view-batch.ts";
import { ViewStore } from "../../src/views/view-store.ts";

const dir = mkdtempSync(join(tmpdir(), "linkprev-clicks-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 12 views of link 1: 4 crawlers (X), 8 people of whom 2 came through the QR code. */
function batch() {
  const builder = new ViewBatchBuilder();
  for (let i = 0; i < 12; i++) {
    const bot = i % 3 === 0;
    builder.add({
      linkId: 1,
      userId: 1,
      isBot: bot,
      platform: bot ? "x" : null,
      address: "203.0.113.9",
      userAgent: bot ? "Twitterbot/1.0" : "Mozilla/5.0",
      attribution: null,
      scan: !bot && i % 4 === 0,
      at: Date.now(),
    });
  }
  return builder.take().batch;
}

test("a batch's counts are stored with it, once per batch id, and the window's close makes one event of them", async () => {
  const sqlite = openSqlite(join(dir, "linkprev.db"));
  applyMigrations(sqlite);
  sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  sqlite.run("INSERT INTO workspaces (slug, name, personal_user_id) VALUES ('a', 'Personal', 1)");
  sqlite.run("INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (1, 1, 'owner')");
  sqlite.run(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'one', 'https://e.eu', 't', 'd')",
  );
  sqlite.run(
    `INSERT INTO webhook_endpoints (user_id, workspace_id, url, events, secret) VALUES (1, 1, 'https://hooks.example/', '["link.clicked"]', 'whsec_x')`,
  );
  const outbox = sqliteClickOutbox(sqlite);
  const clicks = new ClickEvents(Date.now);
  // The first close reads who subscribes.
  await clicks.closeWindow(outbox);
  const store = new ViewStore(sqlite, Date.now, (views) => {
    const tally = clicks.tally(views);
    if (tally) outbox.add(tally);
  });
  const views = batch();
  store.write(views, false, 7);
  // The same batch again (a spool replay after a lost answer): recognised by its id, counted once.
  store.write(views, false, 7);
  const stored = sqlite
    .query<{ bucket: string; n: number }, []>("SELECT bucket, n FROM webhook_click_counts ORDER BY bucket")
    .all();
  expect(stored).toEqual([
    { bucket: "crawler:x", n: 4 },
    { bucket: "people", n: 8 },
    { bucket: "qr", n: 2 },
  ]);

  await clicks.closeWindow(outbox);
  const events = sqlite
    .query<{ type: string; payload: string }, []>("SELECT type, payload FROM webhook_deliveries")
    .all();
  expect(events).toHaveLength(1);
  expect(JSON.parse(events[0]!.payload)).toMatchObject({
    type: "link.clicked",
    data: { id: 1, linkSlug: "one", people: 8, qrScans: 2, crawlers: { x: 4 } },
  });
  expect(sqlite.query("SELECT * FROM webhook_click_counts").all()).toEqual([]);
  sqlite.close();
});
