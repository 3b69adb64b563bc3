import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { migrations } from "../../src/db/sqlite/migrations/index.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { describeDatabase, postgresOptions } from "../../src/db/postgres/options.ts";
import { truncateIp } from "../../src/http/client-ip.ts";
import { classifyUserAgent, getsCard } from "../../src/go/classify.ts";
import { safeHttpUrl } from "../../src/links/url.ts";
import { ViewBatchBuilder } from "../../src/views/view-batch.ts";
import { crawlerAgents } from "../helpers/crawler-agents.ts";

describe("config", () => {
  test("defaults", () => {
    const config = loadConfig({}, {});
    expect(config.port).toBe(3000);
    expect(config.host).toBe("127.0.0.1");
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.dataDir.endsWith("/data")).toBe(true);
    expect(config.secureCookies).toBe(false);
    expect(config.google).toBeNull();
    expect(config.stripe).toBeNull();
    expect(config.businessCountry).toBe("PT");
    expect(config.linkCache.bytes).toBeGreaterThanOrEqual(32 * 2 ** 20);
    expect(config.linkCache.bytes).toBeLessThanOrEqual(2 ** 30);
    expect(config.linkCache.deprecation).toBeNull();
  });
  test("LINK_CACHE_MB sets the link cache's memory; the deprecated LINK_CACHE_SIZE is read as 2 KB a link, with a warning", () => {
    expect(loadConfig({}, { LINK_CACHE_MB: "64" }).linkCache).toEqual({
      bytes: 64 * 2 ** 20,
      source: "LINK_CACHE_MB",
      deprecation: null,
    });
    const legacy = loadConfig({}, { LINK_CACHE_SIZE: "200000" }).linkCache;
    expect(legacy.bytes).toBe(200_000 * 2048);
    expect(legacy.deprecation).toMatch(/LINK_CACHE_SIZE is deprecated: read as LINK_CACHE_MB=391/);
    expect(loadConfig({}, { LINK_CACHE_MB: "8", LINK_CACHE_SIZE: "100" }).linkCache.deprecation).toMatch(/ignored/);
  });
  test("flags win over the environment", () => {
    expect(loadConfig({ PORT: "8080" }, { PORT: "9000" }).port).toBe(8080);
  });
  test("a bad value names the variable", () => {
    expect(() => loadConfig({}, { PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({}, { PORT: "eighty" })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({}, { PUBLIC_URL: "ftp://x" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({}, { GOOGLE_CLIENT_ID: "id" })).toThrow(/GOOGLE_CLIENT_SECRET/);
    expect(() => loadConfig({}, { LINK_CACHE_SIZE: "lots" })).toThrow(/LINK_CACHE_SIZE="lots"/);
  });
  test("DATABASE_URL picks PostgreSQL; unset keeps SQLite in DATA_DIR", () => {
    expect(loadConfig({}, {}).postgres).toBeNull();
    const config = loadConfig(
      {},
      { DATABASE_URL: "postgresql://ana:pw@db.internal:5433/links", DATABASE_POOL_MAX: "8", NODE_SLOT: "3" },
    );
    expect(config.postgres).toEqual({
      url: "postgresql://ana:pw@db.internal:5433/links",
      poolMax: 8,
      waitSeconds: 30,
      nodeSlot: 3,
    });
    expect(
      loadConfig({}, { DATABASE_URL: "postgres://postgres@localhost/linkprev?host=/run/postgresql" }).postgres?.url,
    ).toContain("host=/run/postgresql");
  });
  test("a bad DATABASE_URL is named but never printed: it may hold a password", () => {
    for (const url of ["mysql://ana:s3cret@db/links", "postgres://ana:s3cret@", "postgres:// ana"]) {
      let message = "";
      try {
        loadConfig({}, { DATABASE_URL: url });
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toContain("DATABASE_URL");
      expect(message).not.toContain("s3cret");
      expect(message).not.toContain("ana");
    }
  });
  test("postgres connection options come from the validated URL alone, socket directories included", () => {
    const tcp = postgresOptions("postgres://ana:p%40ss@db.internal:5433/links?sslmode=require", 5);
    expect(tcp).toMatchObject({
      hostname: "db.internal",
      port: 5433,
      username: "ana",
      password: "p@ss",
      database: "links",
      tls: true,
      max: 5,
    });
    const socket = postgresOptions("postgres://postgres@localhost/linkprev?host=/tmp/pg", 2);
    expect(socket).toMatchObject({ hostname: "/tmp/pg", path: "/tmp/pg", username: "postgres", database: "linkprev" });
    expect(describeDatabase("postgres://ana:secret@db.internal:5433/links")).toBe("db.internal:5433/links");
  });
  test("an https public URL makes cookies Secure", () => {
    expect(loadConfig({}, { PUBLIC_URL: "https://lp.example/" }).secureCookies).toBe(true);
    expect(loadConfig({}, { PUBLIC_URL: "https://lp.example/" }).publicUrl).toBe("https://lp.example");
  });
});

describe("migrations", () => {
  test("applying twice is safe", () => {
    const sqlite = new Database(":memory:");
    expect(applyMigrations(sqlite).length).toBe(migrations.length);
    expect(applyMigrations(sqlite)).toEqual([]);
  });
  test("0002 rebuilds the rollups from the stored views and moves User-Agents to their own table", () => {
    const sqlite = new Database(":memory:");
    applyMigrations(sqlite, migrations.slice(0, 2));
    sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
    sqlite.run(
      "INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, 's', 'https://e.eu', 't', 'd')",
    );
    const day1 = Date.UTC(2026, 10, 20, 12);
    const day2 = Date.UTC(2026, 10, 21, 23, 59);
    const add = sqlite.query(
      "INSERT INTO views (user_id, link_id, user_agent, is_bot, platform, timestamp) VALUES (1, 1, ?, ?, ?, ?)",
    );
    add.run("Mozilla/5.0 Firefox", 0, null, day1);
    add.run("Mozilla/5.0 Firefox", 0, null, day2);
    add.run("Twitterbot/1.0", 1, "x", day2);
    add.run("Twitterbot/1.0", 1, "x", day2);
    add.run(null, 1, "other", day1);
    expect(applyMigrations(sqlite, migrations.slice(0, 3))).toEqual(["0002_rollups_and_user_agents"]);
    expect(sqlite.query("SELECT day, platform, human, bot FROM view_rollups ORDER BY day, platform").all()).toEqual([
      { day: "2026-11-20", platform: "", human: 1, bot: 0 },
      { day: "2026-11-20", platform: "other", human: 0, bot: 1 },
      { day: "2026-11-21", platform: "", human: 1, bot: 0 },
      { day: "2026-11-21", platform: "x", human: 0, bot: 2 },
    ]);
    expect(
      sqlite
        .query(
          "SELECT a.text AS agent, count(*) AS n FROM views v LEFT JOIN user_agents a ON a.id = v.user_agent_id GROUP BY 1 ORDER BY 1",
        )
        .all(),
    ).toEqual([
      { agent: null, n: 1 },
      { agent: "Mozilla/5.0 Firefox", n: 2 },
      { agent: "Twitterbot/1.0", n: 2 },
    ]);
    expect(sqlite.query("SELECT last_view_id AS id FROM view_rollup_mark").get()).toEqual({ id: 5 });
  });
  test("limits hold in the database itself", () => {
    const sqlite = new Database(":memory:");
    applyMigrations(sqlite);
    sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
    expect(() => sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'b')")).toThrow(/UNIQUE/);
    expect(() => sqlite.run("INSERT INTO users (email, user_slug) VALUES ('b@x.eu', 'a')")).toThrow(/UNIQUE/);
    expect(() => sqlite.run(`INSERT INTO users (email, user_slug) VALUES ('c@x.eu', '${"x".repeat(21)}')`)).toThrow(
      /CHECK/,
    );
    const link =
      "INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, 's', 'https://e.eu', 't', 'd')";
    sqlite.run(link);
    expect(() => sqlite.run(link)).toThrow(/UNIQUE/);
    // A deleted link no longer holds its slug.
    sqlite.run("UPDATE links SET deleted = 1");
    sqlite.run(link);
  });
});

describe("IP truncation", () => {
  test.each([
    ["203.0.113.77", "203.0.113.0"],
    ["::ffff:203.0.113.77", "203.0.113.0"],
    ["2001:db8:abcd:12:1:2:3:4", "2001:db8:abcd::"],
    ["2001:db8::1", "2001:db8:0::"],
    ["::1", "0:0:0::"],
  ])("%s → %s", (ip, expected) => expect(truncateIp(ip)).toBe(expected));
});

describe("visitor classification", () => {
  test("each crawler is a bot of the platform it is keyed under, with a card; each other bot of its kind, without", () => {
    for (const [list, card] of [
      [crawlerAgents.crawlers, true],
      [crawlerAgents.bots, false],
    ] as const) {
      for (const [platform, agents] of Object.entries(list)) {
        for (const agent of agents) {
          const { kind, ...rest } = classifyUserAgent(agent);
          expect({ agent, ...rest, card: getsCard(kind) }).toEqual({ agent, isBot: true, platform, card });
        }
      }
    }
  });
  test("people, in-app browsers included, are people", () => {
    for (const agent of Object.values(crawlerAgents.people))
      expect(classifyUserAgent(agent)).toEqual({ isBot: false, kind: "person", platform: null });
  });
});

test("a view batch grows past its first allocation and keeps every view in order", () => {
  const builder = new ViewBatchBuilder();
  const agents = ["Twitterbot/1.0", "Mozilla/5.0 Firefox", ""];
  for (let i = 0; i < 3000; i++) {
    builder.add({
      linkId: i,
      userId: 7,
      isBot: i % 3 === 0,
      platform: i % 3 === 0 ? "x" : null,
      address: `203.0.${i % 5}.9`,
      userAgent: agents[i % 3]!,
      attribution: null,
      scan: i % 7 === 0,
      at: 1000 + i,
    });
  }
  const { batch, transfer } = builder.take();
  expect(batch.size).toBe(3000);
  expect(transfer.length).toBe(15);
  for (const i of [0, 1023, 1024, 2047, 2999]) {
    expect(batch.linkId[i]).toBe(i);
    expect(batch.at[i]).toBe(1000 + i);
    expect(batch.isBot[i]).toBe(i % 3 === 0 ? 1 : 0);
    expect(batch.strings[batch.userAgent[i]!]).toBe(agents[i % 3]!);
    expect(batch.strings[batch.address[i]!]).toBe(`203.0.${i % 5}.9`);
    expect(batch.scan[i]).toBe(i % 7 === 0 ? 1 : 0);
    expect(batch.attribution[i]).toBe(-1);
  }
  // Each distinct string once: 3 agents, 5 addresses, 1 platform.
  expect(batch.strings.length).toBe(9);
  expect(builder.take().batch.size).toBe(0);
});

test("only absolute http(s) URLs are safe targets", () => {
  expect(safeHttpUrl("https://example.com/a b")).toBe("https://example.com/a%20b");
  for (const bad of [
    "javascript:alert(1)",
    "data:text/html,x",
    "ftp://x.eu/",
    "/relative",
    "http://",
    "mailto:a@b.eu",
  ]) {
    expect(safeHttpUrl(bad)).toBeNull();
  }
});
