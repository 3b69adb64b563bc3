// The /go link cache on a real SQLite file: bounded by LINK_CACHE_SIZE, filled at start, invalidated on edits.
import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { applyMigrations } from "../../src/db/migrate.ts";
import { LinkCache } from "../../src/redirect/link-cache.ts";

/** An in-memory database where user `a` owns links `l1`..`l{n}`,. */
function database(n: number) {
  const sqlite = new Database(":memory:");
  applyMigrations(sqlite);
  sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  for (let i = 1; i <= n; i++) sqlite.run("INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, ?, ?, 't', 'd')", [`l${i}`, `https://e.eu/${i}`]);
  return sqlite;
}

test("holds at most its size, newest links first at start, the oldest entry going first", () => {
  const sqlite = database(5);
  const cache = new LinkCache(sqlite, 3);
  expect(cache.warm()).toBe(3); // l5, l4, l3
  sqlite.run("UPDATE links SET title = 'changed'"); // only a link read again from SQLite shows this
  expect(cache.get("a", "l4")?.title).toBe("t");
  // Reading an older link evicts the oldest entry (l5) and keeps the size.
  expect(cache.get("a", "l1")?.title).toBe("changed");
  expect(cache.size).toBe(3);
  expect(cache.get("a", "l4")?.title).toBe("t");
  // A link that does not exist is remembered as missing too, within the same bound (l4 goes).
  expect(cache.get("a", "nope")).toBeNull();
  expect(cache.size).toBe(3);
  expect(cache.get("a", "l3")?.title).toBe("t");
  expect(cache.get("a", "l4")?.title).toBe("changed");
});

test("an edited or deleted link is read again once invalidated", () => {
  const sqlite = database(1);
  const cache = new LinkCache(sqlite, 100);
  expect(cache.get("a", "l1")?.title).toBe("t");
  sqlite.run("UPDATE links SET title = 'new' WHERE link_slug = 'l1'");
  expect(cache.get("a", "l1")?.title).toBe("t");
  cache.invalidate("a", "l1");
  expect(cache.get("a", "l1")?.title).toBe("new");
  sqlite.run("UPDATE links SET deleted = 1 WHERE link_slug = 'l1'");
  cache.invalidate("a", "l1");
  expect(cache.get("a", "l1")).toBeNull();
});
