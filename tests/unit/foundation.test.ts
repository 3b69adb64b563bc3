import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import journal from "../../src/db/migrations/meta/_journal.json" with { type: "json" };
import { migrations } from "../../src/db/migrations/index.ts";
import { applyMigrations } from "../../src/db/migrate.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { truncateIp } from "../../src/http/client-ip.ts";
import { classifyUserAgent } from "../../src/redirect/classify.ts";
import { safeHttpUrl } from "../../src/links/url.ts";
import { crawlerAgents } from "../helpers/server.ts";

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
  });
  test("flags win over the environment", () => {
    expect(loadConfig({ PORT: "8080" }, { PORT: "9000" }).port).toBe(8080);
  });
  test("a bad value names the variable", () => {
    expect(() => loadConfig({}, { PORT: "eighty" })).toThrow(ConfigError);
    expect(() => loadConfig({}, { PORT: "eighty" })).toThrow(/PORT="eighty"/);
    expect(() => loadConfig({}, { PUBLIC_URL: "ftp://x" })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({}, { GOOGLE_CLIENT_ID: "id" })).toThrow(/GOOGLE_CLIENT_SECRET/);
  });
  test("an https public URL makes cookies Secure", () => {
    expect(loadConfig({}, { PUBLIC_URL: "https://lp.example/" }).secureCookies).toBe(true);
    expect(loadConfig({}, { PUBLIC_URL: "https://lp.example/" }).publicUrl).toBe("https://lp.example");
  });
});

describe("migrations", () => {
  test("the embedded list matches drizzle-kit's journal", () => {
    expect(migrations.map((m) => m.name)).toEqual(journal.entries.map((e) => e.tag));
  });
  test("applying twice is safe", () => {
    const sqlite = new Database(":memory:");
    expect(applyMigrations(sqlite).length).toBe(migrations.length);
    expect(applyMigrations(sqlite)).toEqual([]);
  });
  test("limits hold in the database itself", () => {
    const sqlite = new Database(":memory:");
    applyMigrations(sqlite);
    sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'a')");
    expect(() => sqlite.run("INSERT INTO users (email, user_slug) VALUES ('a@x.eu', 'b')")).toThrow(/UNIQUE/);
    expect(() => sqlite.run("INSERT INTO users (email, user_slug) VALUES ('b@x.eu', 'a')")).toThrow(/UNIQUE/);
    expect(() => sqlite.run(`INSERT INTO users (email, user_slug) VALUES ('c@x.eu', '${"x".repeat(21)}')`)).toThrow(/CHECK/);
    const link = "INSERT INTO links (user_id, link_slug, target_url, title, description) VALUES (1, 's', 'https://e.eu', 't', 'd')";
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
  test("each crawler is a bot of the platform it is keyed under", () => {
    for (const [platform, agents] of Object.entries(crawlerAgents.crawlers)) {
      for (const agent of agents) expect({ agent, ...classifyUserAgent(agent) }).toEqual({ agent, isBot: true, platform });
    }
  });
  test("people, in-app browsers included, are people", () => {
    for (const agent of Object.values(crawlerAgents.people)) expect(classifyUserAgent(agent)).toEqual({ isBot: false, platform: null });
  });
});

test("only absolute http(s) URLs are safe targets", () => {
  expect(safeHttpUrl("https://example.com/a b")).toBe("https://example.com/a%20b");
  for (const bad of ["javascript:alert(1)", "data:text/html,x", "ftp://x.eu/", "/relative", "http://", "mailto:a@b.eu"]) {
    expect(safeHttpUrl(bad)).toBeNull();
  }
});
