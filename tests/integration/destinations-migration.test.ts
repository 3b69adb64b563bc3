// Data from before migration 0022 (SQLite) / 0020 (PostgreSQL): rules' and domains' addresses join the per-host
// index, targets spelled with a trailing dot get the one spelling, and a later block finds them all. Both engines.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { applyPostgresMigrations } from "../../src/db/postgres/migrate.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { blockHost } from "../../src/safety/host-blocks.ts";
import { seedLink, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The database as it was before the migration: its table, its index and its record gone. */
async function beforeMigration(): Promise<void> {
  await server.sql.run("DROP TABLE destinations");
  await server.sql.run("DROP INDEX links_disabled_address_idx");
  await server.sql.run("DELETE FROM __migrations WHERE name IN ('0022_destinations', '0020_destinations')");
}

async function migrate(): Promise<string[]> {
  const { config } = server.ctx;
  if (!config.postgres) {
    const sqlite = new Database(config.dbPath);
    sqlite.run("PRAGMA busy_timeout = 5000");
    try {
      return applyMigrations(sqlite);
    } finally {
      sqlite.close();
    }
  }
  const client = new SQL({ url: config.postgres.url, max: 1 });
  try {
    return await applyPostgresMigrations(client);
  } finally {
    await client.close();
  }
}

test("the migration indexes existing rules and domain addresses and marks dotted targets; a block then finds them all", async () => {
  await beforeMigration();
  const user = await seedUser(server.sql, { userSlug: "old" });
  // As the code before the migration stored them: the target with its root dot, its domain from tldts.
  const dotted = await seedLink(server.sql, user.id, {
    linkSlug: "dotted",
    targetUrl: "https://old.migrated.example./x",
  });
  await server.sql.run("UPDATE links SET target_domain = 'migrated.example' WHERE id = ?", dotted);
  const ruled = await seedLink(server.sql, user.id, { linkSlug: "ruled", targetUrl: "https://fine.example/" });
  const expiring = await seedLink(server.sql, user.id, { linkSlug: "expiring", targetUrl: "https://fine.example/2" });
  await server.sql.run("UPDATE links SET target_domain = 'fine.example' WHERE id IN (?, ?)", ruled, expiring);
  const rules = (goRules: object) => JSON.stringify(goRules);
  await server.sql.run(
    "INSERT INTO link_rules (link_id, go_rules) VALUES (?, ?)",
    ruled,
    rules({
      rules: [
        { when: { device: "ios" }, targetUrl: "https://fine.example/ios" },
        { when: { country: "DE" }, targetUrl: "https://rule.migrated.example/de" },
      ],
    }),
  );
  await server.sql.run(
    "INSERT INTO link_rules (link_id, go_rules) VALUES (?, ?)",
    expiring,
    rules({ expiresAt: 1, expiredUrl: "https://exp.migrated.example./" }),
  );
  const domain = (await server.sql.get<{ id: number }>(
    "INSERT INTO domains (user_id, workspace_id, hostname, verification_token, root_url, not_found_url) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), 'links.old.example', 't', 'https://root.migrated.example/', 'https://fine.example/404') RETURNING id",
    user.id,
    user.id,
  ))!.id;

  expect(await migrate()).toEqual([server.ctx.config.postgres ? "0020_destinations" : "0022_destinations"]);
  const indexed = await server.sql.all<{ field: string; url: string }>(
    "SELECT field, url FROM destinations ORDER BY id",
  );
  expect(indexed.map((row) => `${row.field} ${row.url}`).sort()).toEqual(
    [
      "expiredUrl https://exp.migrated.example./",
      "notFoundUrl https://fine.example/404",
      "rootUrl https://root.migrated.example/",
      "rules.0.targetUrl https://fine.example/ios",
      "rules.1.targetUrl https://rule.migrated.example/de",
    ].sort(),
  );

  expect(await blockHost(server.ctx.safety, "migrated.example", "ops", "found late")).toBe(3);
  const links = await server.sql.all<{ link_slug: string; status: string; target_url: string }>(
    "SELECT link_slug, status, target_url FROM links WHERE user_id = ? ORDER BY id",
    user.id,
  );
  expect(links).toEqual([
    { link_slug: "dotted", status: "disabled", target_url: "https://old.migrated.example/x" },
    { link_slug: "ruled", status: "disabled", target_url: "https://fine.example/" },
    { link_slug: "expiring", status: "disabled", target_url: "https://fine.example/2" },
  ]);
  expect(await server.sql.get("SELECT root_url, not_found_url FROM domains WHERE id = ?", domain)).toEqual({
    root_url: null,
    not_found_url: "https://fine.example/404",
  });
  const left = await server.sql.all<{ url: string }>("SELECT url FROM destinations WHERE target_domain IS NULL");
  expect(left).toEqual([]);
});
