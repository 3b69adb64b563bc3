// The /go link cache on a real SQLite file: bounded by LINK_CACHE_SIZE, filled at start, invalidated on
// changes, and never storing what a lookup read before an invalidation that overtook it.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/clock.ts";
import type { GoLinkSource } from "../../src/db/ports.ts";
import { openSqlitePlatform } from "../../src/db/sqlite/engine.ts";
import { LinkCache, RETIRED, type GoLink } from "../../src/redirect/link-cache.ts";
import { TestClock } from "../helpers/clock.ts";

/** A migrated database where user `a` owns links `l1`..`l{n}`; `run` changes it behind the cache's back. */
async function database(n: number) {
  const dir = mkdtempSync(join(tmpdir(), "linkprev-cache-"));
  const platform = openSqlitePlatform(join(dir, "linkprev.db"));
  await platform.database.migrate();
  const { Database } = await import("bun:sqlite");
  const sqlite = new Database(join(dir, "linkprev.db"));
  sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  for (let i = 1; i <= n; i++) sqlite.run("INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, ?, ?, 't', 'd')", [`l${i}`, `https://e.eu/${i}`]);
  return {
    goLinks: platform.goLinks,
    run: (statement: string) => sqlite.run(statement),
    [Symbol.asyncDispose]: async () => {
      sqlite.close();
      await platform.database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}


/** A link source whose reads complete only when released: what a lookup sees when a change overtakes it. */
function heldSource(goLinks: GoLinkSource) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const source: GoLinkSource = {
    newestGoLinks: goLinks.newestGoLinks,
    findGoLink: async (userSlug, linkSlug) => {
      const row = await goLinks.findGoLink(userSlug, linkSlug);
      await gate;
      return row;
    },
  };
  return { source, release };
}

test("holds at most its size, newest links first at start, the oldest entry going first", async () => {
  await using db = await database(5);
  const cache = new LinkCache(db.goLinks, 3);
  expect(await cache.warm()).toBe(3); // l5, l4, l3
  db.run("UPDATE links SET title = 'changed'"); // only a link read again from the database shows this
  expect((await cache.get("a", "l4") as GoLink | null)?.title).toBe("t");
  // Reading an older link evicts the oldest entry (l5) and keeps the size.
  expect((await cache.get("a", "l1") as GoLink | null)?.title).toBe("changed");
  expect(cache.size).toBe(3);
  expect((await cache.get("a", "l4") as GoLink | null)?.title).toBe("t");
  // A link that does not exist is remembered as missing apart: no live link goes.
  expect(await cache.get("a", "nope")).toBeNull();
  expect(cache.size).toBe(3);
  expect(cache.missingSize).toBe(1);
  expect((await cache.get("a", "l3") as GoLink | null)?.title).toBe("t");
  expect((await cache.get("a", "l4") as GoLink | null)?.title).toBe("t");
});

/** The /go link source, counting the database reads of single links. */
function countingSource(goLinks: GoLinkSource) {
  const source = {
    reads: 0,
    newestGoLinks: goLinks.newestGoLinks,
    findGoLink: (userSlug: string, linkSlug: string) => (source.reads++, goLinks.findGoLink(userSlug, linkSlug)),
  };
  return source;
}

test("a stream of unknown addresses never evicts a live link: it is still served without a database read", async () => {
  await using db = await database(3);
  const source = countingSource(db.goLinks);
  const cache = new LinkCache(source, 100, Number.POSITIVE_INFINITY, systemClock, 10);
  await cache.warm();
  for (let i = 0; i < 1_000; i++) expect(await cache.get("a", `random${i}`)).toBeNull();
  expect(source.reads).toBe(1_000);
  for (const slug of ["l1", "l2", "l3"]) expect((cache.peek("a", slug) as GoLink | undefined)?.targetUrl).toBe(`https://e.eu/${slug.slice(1)}`);
  expect(source.reads).toBe(1_000);
  // The missing addresses stay within their own bound, the newest remembered.
  expect(cache.size).toBe(3);
  expect(cache.missingSize).toBe(10);
  expect(cache.peek("a", "random999")).toBeNull();
  expect(cache.peek("a", "random0")).toBeUndefined();
});

test("a link created at an address just found missing is served at once", async () => {
  await using db = await database(0);
  const cache = new LinkCache(db.goLinks, 100);
  expect(await cache.get("a", "new")).toBeNull();
  expect(cache.peek("a", "new")).toBeNull();
  db.run("INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, 'new', 'https://e.eu/new', 't', 'd')");
  cache.invalidate("a/new");
  expect((await cache.get("a", "new") as GoLink | null)?.targetUrl).toBe("https://e.eu/new");
});

test("a miss overtaken by the creation of its link does not remember the address as missing", async () => {
  await using db = await database(0);
  const { source: slow, release } = heldSource(db.goLinks);
  const cache = new LinkCache(slow, 100);
  const pending = cache.load("a", "new");
  db.run("INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, 'new', 'https://e.eu/new', 't', 'd')");
  cache.invalidate("a/new");
  release();
  expect(await pending).toBeNull();
  expect(cache.peek("a", "new")).toBeUndefined();
  expect(cache.missingSize).toBe(0);
});

test("an edited or deleted link is read again once invalidated; a hit needs no database", async () => {
  await using db = await database(1);
  const cache = new LinkCache(db.goLinks, 100);
  expect(cache.peek("a", "l1")).toBeUndefined();
  expect((await cache.get("a", "l1") as GoLink | null)?.title).toBe("t");
  db.run("UPDATE links SET title = 'new' WHERE link_slug = 'l1'");
  expect((cache.peek("a", "l1") as GoLink | undefined)?.title).toBe("t");
  cache.invalidate("a/l1");
  expect((await cache.get("a", "l1") as GoLink | null)?.title).toBe("new");
  db.run("UPDATE links SET deleted = 1 WHERE link_slug = 'l1'");
  cache.invalidate("a/l1");
  expect(await cache.get("a", "l1")).toBeNull();
});

test("a lookup overtaken by an invalidation does not store what it read before", async () => {
  await using db = await database(1);
  // A source whose read is answered with the old row only after the change was announced.
  const { source: slow, release } = heldSource(db.goLinks);
  const cache = new LinkCache(slow, 100);
  const pending = cache.load("a", "l1");
  db.run("UPDATE links SET title = 'new' WHERE link_slug = 'l1'");
  cache.invalidate("a/l1");
  release();
  expect(((await pending) as GoLink | null)?.title).toBe("t"); // the request that asked gets what was there when it asked
  expect(cache.peek("a", "l1")).toBeUndefined(); // but the next one reads again
});

test("entries older than the maximum age are read again", async () => {
  await using db = await database(1);
  const clock = new TestClock();
  const cache = new LinkCache(db.goLinks, 100, 0, clock);
  expect((await cache.get("a", "l1") as GoLink | null)?.title).toBe("t");
  clock.advance(1);
  db.run("UPDATE links SET title = 'new' WHERE link_slug = 'l1'");
  expect(cache.peek("a", "l1")).toBeUndefined();
  expect((await cache.get("a", "l1") as GoLink | null)?.title).toBe("new");
});

test("a deleted account's retired slug is remembered as retired; an invalidation by slug drops every address under it", async () => {
  await using db = await database(2);
  const cache = new LinkCache(db.goLinks, 100);
  expect((await cache.get("a", "l1") as GoLink | null)?.title).toBe("t");
  expect(await cache.get("a", "unknown")).toBeNull();
  expect(await cache.get("b", "l1")).toBeNull();
  // What the deletion does (src/account/deletion.ts): the links go, the slug is retired, "a/" is announced.
  db.run("UPDATE links SET deleted = 1");
  db.run("INSERT INTO retired_user_slugs (user_slug) VALUES ('a')");
  cache.invalidate("a/");
  expect(cache.peek("a", "l1")).toBeUndefined();
  expect(cache.peek("a", "unknown")).toBeUndefined();
  expect(cache.peek("b", "l1")).toBeNull(); // another slug's entries stay
  expect(await cache.get("a", "l1")).toBe(RETIRED);
  expect(await cache.get("a", "never")).toBe(RETIRED);
  // The answer is cached like any other: no database read for the next one.
  const misses = cache.misses;
  expect(cache.peek("a", "never")).toBe(RETIRED);
  expect(cache.misses).toBe(misses);
});
