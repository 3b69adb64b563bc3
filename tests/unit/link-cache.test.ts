// The /go link cache on a real SQLite file: bounded in bytes (LINK_CACHE_MB), filled at start, invalidated on
// changes, never storing what a lookup read before an invalidation that overtook it, and answering unknown
// addresses from its filter without a database read.
import { expect, test } from "bun:test";
import { linkChange } from "../../src/db/change.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { systemClock } from "../../src/clock.ts";
import type { GoLinkSource } from "../../src/db/ports.ts";
import { openSqlitePlatform } from "../../src/db/sqlite/engine.ts";
import { linkBytes } from "../../src/link-cache/cache-bytes.ts";
import type { GoLink } from "../../src/link-cache/held-link.ts";
import { LinkCache, RETIRED } from "../../src/link-cache/link-cache.ts";
import { TestClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/eventually.ts";
import { createLogger } from "../../src/observability/log.ts";

const log = createLogger("text");

/** A migrated database where user `a` owns links `l1`..`l{n}`; `run` changes it behind the cache's back. */
async function database(n: number) {
  const dir = mkdtempSync(join(tmpdir(), "linkprev-cache-"));
  const platform = openSqlitePlatform(join(dir, "linkprev.db"));
  await platform.database.migrate();
  const { Database } = await import("bun:sqlite");
  const sqlite = new Database(join(dir, "linkprev.db"));
  sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
  sqlite.run("INSERT INTO workspaces (slug, name, personal_user_id) VALUES ('a', 'Personal', 1)");
  for (let i = 1; i <= n; i++)
    sqlite.run(
      "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, ?, ?, 't', 'd')",
      [`l${i}`, `https://e.eu/${i}`],
    );
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
    ...goLinks,
    findGoLink: async (userSlug, linkSlug) => {
      const row = await goLinks.findGoLink(userSlug, linkSlug);
      await gate;
      return row;
    },
  };
  return { source, release };
}

/** Room for about `links` of the test's links (with no crawler page), the negative answers' share on top. */
const budgetFor = (links: number) =>
  Math.ceil(
    ((links *
      linkBytes("a/l1", {
        id: 1,
        userId: 1,
        userSlug: "a",
        linkSlug: "l1",
        targetUrl: "https://e.eu/1",
        title: "t",
        description: "d",
        imageUrl: null,
        imageWidth: null,
        imageHeight: null,
        version: 1,
        imageSquareUrl: null,
        imageXUrl: null,
        xTitle: null,
        whatsappDescription: null,
        domainId: null,
        goRules: null,
        clicks: null,
        status: "active",
      }) +
      200) *
      32) /
      31,
  );

test("with no views yet, fills with the newest links at start, within half its budget; links read again stay while links read once go", async () => {
  await using db = await database(40);
  const cache = new LinkCache(db.goLinks, budgetFor(24), systemClock, log);
  const warmed = await cache.warm();
  expect(warmed).toBeGreaterThan(10);
  expect(warmed).toBeLessThan(40);
  expect(cache.peek("a", "l40")).toBeDefined(); // the newest
  expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes / 2);
  db.run("UPDATE links SET title = 'changed'"); // only a link read again from the database shows this
  // Popular links read over and over, while every other link is read once, twice over: the popular ones stay.
  const popular = ["l40", "l39", "l38"];
  for (let round = 0; round < 2; round++) {
    for (let i = 1; i <= 37; i++) {
      for (const slug of popular) expect(((await cache.get("a", slug)) as GoLink | null)?.title).toBe("t");
      await cache.get("a", `l${i}`);
      expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
    }
  }
  expect(cache.evictions).toBeGreaterThan(0);
});

test("crawler pages rendered into a cached link are charged to it, and the budget still holds", async () => {
  await using db = await database(30);
  const cache = new LinkCache(db.goLinks, budgetFor(10), systemClock, log);
  await cache.warm();
  for (let i = 1; i <= 30; i++) {
    const link = (await cache.get("a", `l${i}`)) as GoLink;
    const before = cache.bytes;
    cache.keepPreview(link, "x", new Uint8Array(300));
    expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
    if (cache.peek("a", `l${i}`) === link) expect(cache.bytes).toBeGreaterThan(before);
  }
  // A page too big for the cache's small queue drops the link (it is read again) rather than overflowing.
  const link = (await cache.get("a", "l1")) as GoLink;
  cache.keepPreview(link, "x", new Uint8Array(cache.budgetBytes));
  expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
});

/** The /go link source, counting the database reads of single links. */
function countingSource(goLinks: GoLinkSource) {
  const source = {
    reads: 0,
    ...goLinks,
    findGoLink: (userSlug: string, linkSlug: string) => (source.reads++, goLinks.findGoLink(userSlug, linkSlug)),
  };
  return source;
}

test("a flood of unknown addresses costs no database read and never evicts a live link", async () => {
  await using db = await database(3);
  const source = countingSource(db.goLinks);
  const cache = new LinkCache(source, budgetFor(100), systemClock, log);
  await cache.warm();
  const bytes = cache.bytes;
  for (let i = 0; i < 10_000; i++) expect(await cache.get("a", `random${i}`)).toBeNull();
  for (let i = 0; i < 1_000; i++) expect(await cache.get(`u${i}`, "l1")).toBeNull();
  expect(source.reads).toBe(0);
  expect(cache.filtered).toBe(11_000);
  for (const slug of ["l1", "l2", "l3"])
    expect((cache.peek("a", slug) as GoLink | undefined)?.targetUrl).toBe(`https://e.eu/${slug.slice(1)}`);
  expect(cache.evictions).toBe(0);
  expect(cache.bytes).toBe(bytes);
});

test("addresses that pass the filter and are missing (deleted links) are remembered in their own share: no live link goes", async () => {
  await using db = await database(1_003);
  const source = countingSource(db.goLinks);
  const cache = new LinkCache(source, budgetFor(300), systemClock, log);
  await cache.warm();
  const held = cache.size;
  expect(cache.peek("a", "l500")).toBeUndefined(); // only the newest are held
  // Deleted links stay in the filter: each is one read, then a negative answer in the negatives' own budget.
  db.run("UPDATE links SET deleted = 1 WHERE id <= 500");
  for (let i = 1; i <= 500; i++) expect(await cache.get("a", `l${i}`)).toBeNull();
  expect(source.reads).toBe(500);
  expect(cache.unknownReads).toBe(500);
  expect(cache.missingSize).toBeGreaterThan(0);
  expect(cache.missingSize).toBeLessThan(500);
  expect(cache.peek("a", "l500")).toBeNull(); // the newest negative answers are remembered
  expect(cache.size).toBe(held);
  expect(cache.evictions).toBe(0);
  for (const slug of ["l1001", "l1002", "l1003"]) expect(cache.peek("a", slug)).toBeDefined();
  expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes);
});

test("a link created after the filter was built is served at once when announced, even during a rebuild", async () => {
  await using db = await database(0);
  const cache = new LinkCache(db.goLinks, budgetFor(100), systemClock, log);
  await cache.warm();
  expect(cache.peek("a", "new")).toBeNull(); // the filter says it does not exist
  db.run(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'new', 'https://e.eu/new', 't', 'd')",
  );
  cache.invalidate(linkChange("a", "new"));
  expect(((await cache.get("a", "new")) as GoLink | null)?.targetUrl).toBe("https://e.eu/new");
  // A reset (changes may have been missed) rebuilds the filter; a link announced meanwhile is kept.
  const { source: slow, release } = heldSource(db.goLinks);
  // Nothing is held at start, so only the filter can tell whether the address exists.
  const held = new LinkCache(
    {
      ...slow,
      mostViewedLinkIds: async () => [],
      newestGoLinks: async () => [],
      goAddresses: async (onAddress) => {
        await db.goLinks.goAddresses(onAddress);
        await slow.findGoLink("a", "new");
      },
    },
    budgetFor(100),
    systemClock,
    log,
  );
  const warming = held.warm();
  db.run(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'newer', 'https://e.eu/newer', 't', 'd')",
  );
  held.invalidate(linkChange("a", "newer"));
  release();
  await warming;
  expect(held.peek("a", "newer")).toBeUndefined(); // not known missing: read
  expect(((await held.get("a", "newer")) as GoLink | null)?.targetUrl).toBe("https://e.eu/newer");
  expect(held.peek("a", "other")).toBeNull();
});

test("a link created at an address just found missing is served at once", async () => {
  await using db = await database(0);
  const cache = new LinkCache(db.goLinks, budgetFor(100), systemClock, log);
  expect(await cache.get("a", "new")).toBeNull();
  expect(cache.peek("a", "new")).toBeNull();
  db.run(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'new', 'https://e.eu/new', 't', 'd')",
  );
  cache.invalidate(linkChange("a", "new"));
  expect(((await cache.get("a", "new")) as GoLink | null)?.targetUrl).toBe("https://e.eu/new");
});

test("a miss overtaken by the creation of its link does not remember the address as missing", async () => {
  await using db = await database(0);
  const { source: slow, release } = heldSource(db.goLinks);
  const cache = new LinkCache(slow, budgetFor(100), systemClock, log);
  const pending = cache.load("a", "new");
  db.run(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'new', 'https://e.eu/new', 't', 'd')",
  );
  cache.invalidate(linkChange("a", "new"));
  release();
  expect(await pending).toBeNull();
  expect(cache.peek("a", "new")).toBeUndefined();
  expect(cache.missingSize).toBe(0);
});

test("an edited or deleted link is read again once invalidated; a hit needs no database", async () => {
  await using db = await database(1);
  const cache = new LinkCache(db.goLinks, budgetFor(100), systemClock, log);
  expect(cache.peek("a", "l1")).toBeUndefined();
  expect(((await cache.get("a", "l1")) as GoLink | null)?.title).toBe("t");
  db.run("UPDATE links SET title = 'new' WHERE link_slug = 'l1'");
  expect((cache.peek("a", "l1") as GoLink | undefined)?.title).toBe("t");
  cache.invalidate(linkChange("a", "l1"));
  expect(((await cache.get("a", "l1")) as GoLink | null)?.title).toBe("new");
  db.run("UPDATE links SET deleted = 1 WHERE link_slug = 'l1'");
  cache.invalidate(linkChange("a", "l1"));
  expect(await cache.get("a", "l1")).toBeNull();
});

test("a lookup overtaken by an invalidation does not store what it read before", async () => {
  await using db = await database(1);
  // A source whose read is answered with the old row only after the change was announced.
  const { source: slow, release } = heldSource(db.goLinks);
  const cache = new LinkCache(slow, budgetFor(100), systemClock, log);
  const pending = cache.load("a", "l1");
  db.run("UPDATE links SET title = 'new' WHERE link_slug = 'l1'");
  cache.invalidate(linkChange("a", "l1"));
  release();
  expect(((await pending) as GoLink | null)?.title).toBe("t"); // the request that asked gets what was there when it asked
  expect(cache.peek("a", "l1")).toBeUndefined(); // but the next one reads again
});

test("entries older than the maximum age are read again", async () => {
  await using db = await database(1);
  const clock = new TestClock();
  const cache = new LinkCache(db.goLinks, budgetFor(100), clock, log, 0);
  expect(((await cache.get("a", "l1")) as GoLink | null)?.title).toBe("t");
  clock.advance(1);
  db.run("UPDATE links SET title = 'new' WHERE link_slug = 'l1'");
  expect(cache.peek("a", "l1")).toBeUndefined();
  expect(((await cache.get("a", "l1")) as GoLink | null)?.title).toBe("new");
});

test("a deleted account's retired slug is remembered as retired; an invalidation by slug drops every address under it", async () => {
  await using db = await database(2);
  const cache = new LinkCache(db.goLinks, budgetFor(100), systemClock, log);
  expect(((await cache.get("a", "l1")) as GoLink | null)?.title).toBe("t");
  expect(await cache.get("a", "unknown")).toBeNull();
  expect(await cache.get("b", "l1")).toBeNull();
  // What the deletion does (src/account/deletion.ts): the links go, the slug is retired, "a/" is announced.
  db.run("UPDATE links SET deleted = 1");
  db.run("INSERT INTO retired_user_slugs (user_slug) VALUES ('a')");
  cache.invalidate({ kind: "user", userSlug: "a" });
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

test("where an announcement could be lost, the filter is read again after ten maximum ages: a link nobody announced is found", async () => {
  await using db = await database(0);
  const clock = new TestClock();
  const cache = new LinkCache(db.goLinks, budgetFor(100), clock, log, 1_000);
  await cache.warm();
  db.run(
    "INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) VALUES (1, 1, 'quiet', 'https://e.eu/quiet', 't', 'd')",
  );
  expect(cache.peek("a", "quiet")).toBeNull();
  clock.advance(10_001);
  expect(cache.peek("a", "quiet")).toBeNull(); // starts the rebuild; the old filter answers meanwhile
  await eventually(async () => expect(cache.peek("a", "quiet")).toBeUndefined(), { what: "the rebuilt filter" });
  expect(((await cache.get("a", "quiet")) as GoLink | null)?.targetUrl).toBe("https://e.eu/quiet");
});

test("at start a first page of links is held at once and the rest in the background, up to half the budget", async () => {
  await using db = await database(0);
  db.run(
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 45000) INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description) SELECT 1, 1, 'l' || i, 'https://e.eu/' || i, 't', 'd' FROM n",
  );
  const cache = new LinkCache(db.goLinks, budgetFor(60_000), systemClock, log);
  let filled: number | null = null;
  expect(await cache.warm((held) => (filled = held))).toBe(20_000);
  expect(cache.filling).toBe(true);
  await eventually(() => expect(filled).not.toBeNull(), { what: "the background fill" });
  expect(cache.filling).toBe(false);
  expect(filled!).toBeGreaterThan(25_000);
  expect(filled!).toBeLessThan(45_000);
  expect(cache.evictions).toBe(0);
  expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes / 2);
  expect(cache.peek("a", "l45000")).toBeDefined();
  expect(cache.peek("a", "l20000")).toBeDefined(); // from the second page
  expect(cache.peek("a", "l1")).toBeUndefined(); // past half the budget: read when asked for
});

test("at start the most viewed links are held first, then the newest, and the fill stops at half the budget", async () => {
  await using db = await database(1_000);
  // Links l1..l300 have views, l300 the most; the newest (l1000) none.
  db.run("UPDATE link_totals SET human = link_id WHERE link_id <= 300");
  const cache = new LinkCache(db.goLinks, budgetFor(200), systemClock, log);
  await cache.warm();
  expect(cache.bytes).toBeLessThanOrEqual(cache.budgetBytes / 2);
  expect(cache.size).toBeGreaterThan(90);
  for (const slug of ["l300", "l299", "l250", "l220"]) expect(cache.peek("a", slug)).toBeDefined();
  for (const slug of ["l1", "l100", "l1000", "l999"]) expect(cache.peek("a", slug)).toBeUndefined();
  // The other half is for what traffic asks for: a link read now is held without pushing a popular one out.
  expect(((await cache.get("a", "l1000")) as GoLink | null)?.targetUrl).toBe("https://e.eu/1000");
  expect(cache.peek("a", "l1000")).toBeDefined();
  expect(cache.evictions).toBe(0);
});
