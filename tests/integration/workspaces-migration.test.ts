// Data from before workspaces (SQLite migration 0028, PostgreSQL 0026): a database built with the schema as it was,
// holding two accounts' links, versions, an earlier address, a custom domain's link, a retired slug and an API
// token, is migrated by the server's start, and every published address answers as the data says it did: the same
// status, the same target, the same card, the same QR code. Both engines (LINKPREV_TEST_DB).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import jsQR from "jsqr";
import { hashSecret } from "../../src/auth/tokens.ts";
import { applyPostgresMigrations } from "../../src/db/postgres/migrate.ts";
import { migrations as postgresMigrations } from "../../src/db/postgres/migrations/index.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { migrations as sqliteMigrations } from "../../src/db/sqlite/migrations/index.ts";
import { decodePng, loadPngCodec } from "../../src/links/images/codecs.ts";
import { newTestDatabase } from "../helpers/postgres-test-cluster.ts";
import { crawlerAgents, startTestServer, testEngine, type TestServer } from "../helpers/server.ts";
import { postgresTestDb, sqliteTestDb, type TestDb } from "../helpers/test-db.ts";

const PERSON = crawlerAgents.people["chrome-windows"]!;
const FACEBOOK = crawlerAgents.crawlers.facebook![0]!;
const TOKEN = "lp_before_workspaces_0123456789abcdef";
const HOST = "links.ann-before.test";

/** The migrations that made the schema as it was the day before workspaces. */
const before = <M extends { name: string }>(list: readonly M[], last: string) =>
  list.slice(0, list.findIndex((m) => m.name === last) + 1);

/** The rows, in the columns that schema had; `?` placeholders, booleans as 0/1 (both engines accept them as written). */
const SEED: Array<[string, unknown[]]> = [
  [
    `INSERT INTO users (id, email, user_slug, stripe_customer_id, vat_country_code, vat_number, vat_company_name) VALUES
      (1, 'ann@example.com', 'ann', 'cus_ann', 'DE', '123456789', 'Ann GmbH'), (2, 'bob@example.com', 'bob', NULL, NULL, NULL, NULL)`,
    [],
  ],
  ["INSERT INTO user_consents (user_id) VALUES (1), (2)", []],
  ["INSERT INTO retired_user_slugs (user_slug) VALUES ('gone')", []],
  ["INSERT INTO api_tokens (user_id, name, token_hash) VALUES (1, 'cli', ?)", [hashSecret(TOKEN)]],
  [
    "INSERT INTO domains (id, user_id, hostname, status, verification_token) VALUES (1, 1, ?, 'verified', 'linkprev-verify=x')",
    [HOST],
  ],
  [
    `INSERT INTO links (id, user_id, link_slug, target_url, title, description, version, domain_id) VALUES
      (1, 1, 'launch', 'https://ann.example/launch', 'Ann launches', 'Version two is out', 3, NULL),
      (2, 1, 'now', 'https://ann.example/renamed', 'Ann renamed', 'It moved', 1, NULL),
      (3, 1, 'promo', 'https://ann.example/promo', 'Ann promo', 'On her own domain', 1, 1),
      (4, 2, 'launch', 'https://bob.example/launch', 'Bob launches', 'Not Ann''s', 1, NULL)`,
    [],
  ],
  ["INSERT INTO link_old_addresses (user_id, link_id, link_slug) VALUES (1, 2, 'then'), (1, NULL, 'dropped')", []],
];

let server: TestServer;
let dataDir: string;
/** The migrated database itself (the test server's own `sql` is of a database it made and does not serve here). */
let db: TestDb;

/** A database at the schema before workspaces, seeded; returns the environment a server opens it with. */
async function databaseBeforeWorkspaces(): Promise<Record<string, string>> {
  dataDir = mkdtempSync(join(tmpdir(), "linkprev-before-workspaces-"));
  if (testEngine === "sqlite") {
    const sqlite = new Database(join(dataDir, "linkprev.db"), { create: true, strict: true });
    sqlite.run("PRAGMA foreign_keys = ON");
    applyMigrations(sqlite, before(sqliteMigrations, "0027_domain_app_links"));
    for (const [text, params] of SEED) sqlite.query(text).run(...(params as string[]));
    sqlite.close();
    db = sqliteTestDb(join(dataDir, "linkprev.db"));
    return { DATA_DIR: dataDir };
  }
  const url = await newTestDatabase();
  const client = new SQL({ url, max: 1 });
  // A template database is migrated to the newest schema: start from an empty one.
  await client.unsafe("DROP SCHEMA public CASCADE; CREATE SCHEMA public");
  await applyPostgresMigrations(client, before(postgresMigrations, "0025_domain_app_links"));
  for (const [text, params] of SEED) {
    let n = 0;
    await client.unsafe(
      text.replace(/\?/g, () => `$${++n}`),
      params as string[],
    );
  }
  for (const table of ["users", "domains", "links"])
    await client.unsafe(`SELECT setval('${table}_id_seq', (SELECT max(id) FROM ${table}))`);
  await client.close();
  db = postgresTestDb(url);
  return { DATABASE_URL: url };
}

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://lp.example", ...(await databaseBeforeWorkspaces()) });
});
afterAll(async () => {
  await db.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const go = (path: string, agent: string, host?: string) =>
  fetch(`${server.url}${path}`, {
    redirect: "manual",
    headers: { "user-agent": agent, ...(host ? { host } : {}) },
  });

test("every /go address, version and earlier address answers as before", async () => {
  const people: Array<[string, number, string | null]> = [
    ["/go/ann/launch", 302, "https://ann.example/launch"],
    ["/go/ann/launch/2", 302, "https://ann.example/launch"],
    ["/go/ann/launch/3", 302, "https://ann.example/launch"],
    ["/go/ann/launch/4", 404, null],
    ["/go/bob/launch", 302, "https://bob.example/launch"],
    ["/go/ann/now", 302, "https://ann.example/renamed"],
    ["/go/ann/then", 302, "https://ann.example/renamed"],
    ["/go/ann/dropped", 410, null],
    ["/go/gone/anything", 410, null],
    ["/go/ann/nothing", 404, null],
  ];
  for (const [path, status, location] of people) {
    const response = await go(path, PERSON);
    expect({ path, status: response.status, location: response.headers.get("location") }).toEqual({
      path,
      status,
      location,
    });
  }
  const card = await (await go("/go/ann/launch/3", FACEBOOK)).text();
  expect(card).toContain('<meta property="og:title" content="Ann launches"');
  expect(card).toContain("https://lp.example/go/ann/launch/3");
  expect(await (await go("/go/bob/launch", FACEBOOK)).text()).toContain('content="Bob launches"');
});

test("the custom domain serves its link at the same address", async () => {
  const response = await go("/promo", PERSON, HOST);
  expect([response.status, response.headers.get("location")]).toEqual([302, "https://ann.example/promo"]);
  expect((await go("/launch", PERSON, HOST)).status).toBe(404);
});

test("the old token still acts for its owner, in her personal workspace: her links, short URLs and QR code as before", async () => {
  const api = (path: string) => fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const links = (await (await api("/api/links")).json()) as Array<{ linkSlug: string; shortUrl: string }>;
  expect(links.map((l) => [l.linkSlug, l.shortUrl]).sort()).toEqual([
    ["launch", "https://lp.example/go/ann/launch"],
    ["now", "https://lp.example/go/ann/now"],
    ["promo", `https://${HOST}/promo`],
  ]);
  await loadPngCodec();
  const png = await api("/api/links/1/qr?format=png&size=300");
  expect(png.status).toBe(200);
  const image = await decodePng(await png.arrayBuffer());
  expect(jsQR(image.data as Uint8ClampedArray, 300, 300)?.data).toBe("https://lp.example/go/ann/launch?qr=1");
  const workspaces = await db.all<{ id: number; slug: string; personalUserId: number }>(
    `SELECT id, slug, personal_user_id AS "personalUserId" FROM workspaces ORDER BY id`,
  );
  expect(workspaces).toEqual([
    { id: 1, slug: "ann", personalUserId: 1 },
    { id: 2, slug: "bob", personalUserId: 2 },
  ]);
  // The ids were given by the migration: the next workspace's comes after them (PostgreSQL's sequence was moved on).
  const next = await db.get<{ id: number }>("INSERT INTO workspaces (slug, name) VALUES ('team', 'Team') RETURNING id");
  expect(next!.id).toBe(3);
});

test("the Stripe customer and VAT exemption are the personal workspace's, as her account shows them (0069)", async () => {
  expect(
    await db.all(
      `SELECT slug, stripe_customer_id AS customer, vat_country_code AS country, vat_number AS vat, vat_company_name AS company FROM workspaces WHERE personal_user_id IS NOT NULL ORDER BY id`,
    ),
  ).toEqual([
    { slug: "ann", customer: "cus_ann", country: "DE", vat: "123456789", company: "Ann GmbH" },
    { slug: "bob", customer: null, country: null, vat: null, company: null },
  ]);
  const me = await fetch(`${server.url}/api/auth/user`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect((await me.json()).stripeCustomerId).toBe("cus_ann");
});
