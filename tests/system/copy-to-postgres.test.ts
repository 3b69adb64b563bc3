// `linkprev admin copy-to-postgres`: a SQLite data directory with real traffic (links with an uploaded image, a
// deleted link, views of people and crawlers, a session with consent, billing rows, and views a crash left
// beyond the rollup fold) is copied by the CLI, as a child process, into a fresh database of a throwaway
// PostgreSQL cluster. Then every row of every table matches, a `linkprev serve` on PostgreSQL serves every
// link, its image and the same counts as a SQLite server on the original directory, new rows get fresh ids,
// and copying again into the now non-empty database is refused with exit code 2.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { apiTokenFor, loginLinkFor } from "../../src/admin/access.ts";
import agents from "../fixtures/crawler-agents.json" with { type: "json" };
import { startFakeS3, type FakeS3 } from "../fakes/s3.ts";
import { Browser } from "../helpers/browser.ts";
import { cliPath, runCli } from "../helpers/cli.ts";
import { postgresInstalled, startPgCluster, type PgCluster } from "../helpers/cluster.ts";
import { makePng } from "../helpers/images.ts";
import { cleanUp, step } from "../helpers/named-steps.ts";
import { apiCall, linkForm, stopNode } from "../helpers/nodes.ts";
import { acceptTerms, startTestServer, type TestServer } from "../helpers/server.ts";

const available = postgresInstalled("the copy-to-postgres tests");

const PEOPLE = Object.values(agents.people);
const CRAWLERS = Object.values(agents.crawlers).map((list) => list[0]!);
/** Every table copied, with its primary key (for the row-by-row comparison). */
const TABLES = [
  "users",
  "workspaces",
  "workspace_members",
  "links",
  "subscriptions",
  "payments",
  "user_consents",
  "api_tokens",
  "login_links",
  "sessions",
  "stripe_events",
  "user_agents",
  "views",
  "view_rollups",
  "workspace_invites",
  "qr_styles",
  "link_qr_styles",
];
const TRICKY_TITLE = `Ana's "launch" \\ {v2}, 50 % off 🎉`;
const GAP_VIEWS = 3;

let pg: PgCluster;
let source: TestServer;
let dataDir: string;
let token: string;
let sessionCookie: string;
const links: Record<
  string,
  { id: number; linkSlug: string; targetUrl: string; imageUrl: string | null; userSlug: string }
> = {};
let fake: FakeS3 | undefined;

const copy = (databaseUrl: string, env: Record<string, string> = {}) =>
  runCli(["admin", "copy-to-postgres", "--database-url", databaseUrl, "--data", dataDir], {
    env: { DATABASE_URL: "", ...env },
  });

/** Values as both engines mean them: instants as ms, booleans as 0/1, whole numbers (int8 comes back as text) as numbers. */
function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.getTime();
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Math.trunc(value);
  if (typeof value === "string" && /^-?\d{1,15}$/.test(value)) return Number(value);
  return value;
}
const normaliseRows = (rows: Array<Record<string, unknown>>) =>
  rows
    .map((row) =>
      JSON.stringify(
        Object.entries(row)
          .map(([k, v]) => [k, normalise(v)])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ),
    )
    .sort();

/** What a client sees: the live and deleted lists, totals, and each link's chart and platforms. */
async function apiSnapshot(baseUrl: string): Promise<unknown> {
  const get = async (path: string) => {
    const response = await apiCall(baseUrl, token, path);
    expect(response.status).toBe(200);
    return response.json();
  };
  const live = await get("/api/links");
  const perLink: Record<string, unknown> = {};
  for (const link of live as Array<{ id: number }>) {
    const views = await get(`/api/links/${link.id}/views?days=30`);
    views.platforms.sort((a: { platform: string }, b: { platform: string }) => a.platform.localeCompare(b.platform));
    perLink[link.id] = views;
  }
  return { live, deleted: await get("/api/links/deleted"), stats: await get("/api/links/stats"), perLink };
}

const go = (baseUrl: string, path: string, agent: string) =>
  fetch(`${baseUrl}/go/${path}`, { redirect: "manual", headers: { "user-agent": agent } });

describe.skipIf(!available)("linkprev admin copy-to-postgres", () => {
  beforeAll(async () => {
    pg = await step("starting a throwaway PostgreSQL cluster", () => startPgCluster());
    // A SQLite server with real traffic.
    // SQLite whichever engine this test run's servers use (DATABASE_URL empty = unset).
    source = await step("starting the SQLite server", () =>
      startTestServer({ PUBLIC_URL: "http://links.test", DATABASE_URL: "" }),
    );
    expect(source.ctx.database.kind).toBe("sqlite");
    dataDir = source.dataDir;
    token = await step("ana's API token", async () => {
      const anaToken = await apiTokenFor(source.ctx.database, "ana@example.com", "laptop");
      await acceptTerms(source.url, anaToken);
      return anaToken;
    });
    const beaToken = await step("bea's API token", async () => {
      const created = await apiTokenFor(source.ctx.database, "bea@example.com", "cli");
      await acceptTerms(source.url, created);
      return created;
    });
    const create = async (who: string, body: { form?: FormData; json?: unknown }) => {
      const response = await apiCall(source.url, who, "/api/links", { method: "POST", ...body });
      expect(response.status).toBe(201);
      return response.json();
    };
    const userSlugOf = async (who: string) =>
      (await (await apiCall(source.url, who, "/api/auth/user")).json()).userSlug as string;
    const anaSlug = await userSlugOf(token);
    const beaSlug = await userSlugOf(beaToken);
    await step("creating the links", async () => {
      const keep = (
        key: string,
        link: { id: number; linkSlug: string; targetUrl: string; imageUrl: string | null },
        userSlug: string,
      ) => (links[key] = { ...link, userSlug });
      keep(
        "cover",
        await create(token, {
          form: linkForm(
            {
              title: "Cover",
              description: "With a picture",
              targetUrl: "https://example.com/cover",
              customLinkSlug: "cover",
            },
            { bytes: makePng(400, 300), name: "c.png", type: "image/png" },
          ),
        }),
        anaSlug,
      );
      keep(
        "tricky",
        await create(token, {
          json: {
            title: TRICKY_TITLE,
            description: "Quotes, backslash, braces\tand a tab",
            targetUrl: "https://example.com/a?b=c&d=%7Be%7D",
            customLinkSlug: "tricky",
          },
        }),
        anaSlug,
      );
      keep(
        "external",
        await create(token, {
          json: {
            title: "External",
            description: "An image elsewhere",
            targetUrl: "https://example.com/ext",
            imageUrl: "https://cdn.example.com/x.png",
          },
        }),
        anaSlug,
      );
      const gone = await create(token, {
        json: { title: "Gone", description: "Deleted", targetUrl: "https://example.com/gone", customLinkSlug: "gone" },
      });
      expect((await apiCall(source.url, token, `/api/links/${gone.id}`, { method: "DELETE" })).status).toBe(204);
      keep("gone", gone, anaSlug);
      keep(
        "bea",
        await create(beaToken, {
          json: {
            title: "Bea",
            description: "Other user",
            targetUrl: "https://example.com/bea",
            customLinkSlug: "bea",
          },
        }),
        beaSlug,
      );
    });

    // Views of people and crawlers on several links.
    await step("visiting the links", async () => {
      const visits: Array<Promise<Response>> = [];
      for (let i = 0; i < 40; i++) visits.push(go(source.url, `${anaSlug}/cover`, PEOPLE[i % PEOPLE.length]!));
      for (let i = 0; i < 25; i++) visits.push(go(source.url, `${anaSlug}/cover`, CRAWLERS[i % CRAWLERS.length]!));
      for (let i = 0; i < 12; i++) visits.push(go(source.url, `${anaSlug}/tricky`, PEOPLE[i % PEOPLE.length]!));
      for (let i = 0; i < 7; i++) visits.push(go(source.url, `${beaSlug}/bea`, CRAWLERS[i % CRAWLERS.length]!));
      for (const response of await Promise.all(visits)) expect([200, 302]).toContain(response.status);
      await source.flushViews();
    });

    // A browser session that accepted the terms.
    await step("signing in with a browser", async () => {
      const browser = new Browser(source.url);
      const loginToken = (await loginLinkFor(source.ctx.database, source.url, "ana@example.com")).split("/login/")[1]!;
      expect(
        (
          await browser.fetch("/api/auth/login-link", {
            method: "POST",
            body: new URLSearchParams({ token: loginToken }),
          })
        ).status,
      ).toBe(303);
      expect(
        (
          await browser.fetch("/api/auth/consent", {
            method: "POST",
            json: { termsAccepted: true, privacyAccepted: true },
          })
        ).status,
      ).toBe(200);
      sessionCookie = browser.cookieHeader();
      await loginLinkFor(source.ctx.database, source.url, "carla@example.com", "Carla Dias");
    });
    await step("stopping the SQLite server", () => source.stop());

    // Billing rows as the Stripe webhooks write them, and views a crash stored beyond the rollups' fold mark.
    await step("writing billing rows and views beyond the fold mark", () => {
      const sqlite = new Database(join(dataDir, "linkprev.db"), { strict: true });
      // A second writer of the file, as an operator's script would be: it waits for the lock of a connection the
      // stopped server is still releasing (its closing checkpoint) rather than failing at once.
      sqlite.run("PRAGMA busy_timeout = 5000");
      const anaId = sqlite.query<{ id: number }, []>("SELECT id FROM users WHERE email = 'ana@example.com'").get()!.id;
      sqlite.run(
        `INSERT INTO subscriptions (user_id, workspace_id, stripe_subscription_id, stripe_price_id, status, plan_id, is_annual, current_period_start, current_period_end, cancel_at_period_end, stripe_event_at)
         VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), 'sub_1', 'price_pro', 'active', 'pro', 1, ?, ?, 0, 1767225600)`,
        [anaId, anaId, Date.now() - 86_400_000, Date.now() + 29 * 86_400_000],
      );
      sqlite.run(
        `INSERT INTO payments (user_id, workspace_id, stripe_payment_intent_id, stripe_invoice_id, amount, currency, status) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), 'pi_1', 'in_1', 1900, 'eur', 'succeeded')`,
        [anaId, anaId],
      );
      // The bill's customer and VAT exemption are the workspace's (docs/decisions/0069).
      sqlite.run(
        `UPDATE workspaces SET stripe_customer_id = 'cus_1', vat_country_code = 'DE', vat_number = '123456789', vat_company_name = 'Ana GmbH' WHERE personal_user_id = ?`,
        [anaId],
      );
      sqlite.run(`INSERT INTO stripe_events (id, type) VALUES ('evt_1', 'invoice.paid')`);
      sqlite.run(
        `INSERT INTO workspace_invites (workspace_id, email, role, token_hash, invited_by_user_id, expires_at)
         VALUES ((SELECT id FROM workspaces WHERE personal_user_id = ?), 'bea@example.com', 'member', ?, ?, ?)`,
        [anaId, "0".repeat(64), anaId, Date.now() + 14 * 86_400_000],
      );
      // A default QR style with its logo (base64 PNG text), and a link's own style (docs/decisions/0067).
      sqlite.run(
        `INSERT INTO qr_styles (workspace_id, style, logo, logo_width, logo_height) VALUES ((SELECT id FROM workspaces WHERE personal_user_id = ?), ?, 'iVBORw0KGgo=', 1, 1)`,
        [anaId, JSON.stringify({ fg: "#1a237e", shape: "dots" })],
      );
      sqlite.run(`INSERT INTO link_qr_styles (link_id, style) VALUES (?, '{"fg":"#b71c1c"}')`, [links.tricky!.id]);
      const mark = sqlite.query<{ m: number }, []>("SELECT last_view_id AS m FROM view_rollup_mark").get()!.m;
      const newest = sqlite.query<{ id: number }, []>("SELECT max(id) AS id FROM views").get()!.id;
      expect(mark).toBe(newest);
      const agentId = sqlite.query<{ id: number }, []>("SELECT min(id) AS id FROM user_agents").get()!.id;
      const threeDaysAgo = Date.now() - 3 * 86_400_000;
      for (let i = 1; i <= GAP_VIEWS; i++) {
        sqlite.run(
          `INSERT INTO views (id, user_id, link_id, ip, user_agent_id, is_bot, platform, timestamp) VALUES (?, ?, ?, '192.0.2.0', ?, 0, NULL, ?)`,
          [newest + i, anaId, links.tricky!.id, agentId, threeDaysAgo],
        );
      }
      sqlite.close();
    });
  });

  afterAll(() =>
    cleanUp([
      ["stopping the PostgreSQL nodes and cluster", () => pg?.stop()],
      ["stopping the fake S3", () => fake?.stop()],
      ["closing the SQLite server", () => source?.close()],
    ]),
  );

  test("copies every row of every table, converting types, into one transaction; the counts are printed", async () => {
    const { url, db } = await pg.database();
    const run = await copy(url, { UPLOADS_STORE: "db" });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Copied ");
    expect(run.stdout).toMatch(/views\s+\d+/);
    expect(run.stdout).toContain(
      `(${GAP_VIEWS} view(s) stored after SQLite's last rollup fold are counted in view_rollups)`,
    );
    // One uploaded image: its kept source and three renditions (docs/decisions/0009).
    expect(run.stdout).toContain("Images: 4 copied into the database (uploads table)");

    const sqlite = new Database(join(dataDir, "linkprev.db"), { readonly: true });
    try {
      for (const table of TABLES) {
        const fromSqlite = sqlite.query<Record<string, unknown>, []>(`SELECT * FROM ${table}`).all();
        const fromPg: Array<Record<string, unknown>> = [...(await db.unsafe(`SELECT * FROM ${table}`))];
        expect(fromSqlite.length).toBeGreaterThan(0);
        expect(run.stdout).toMatch(
          new RegExp(`\\b${table}\\s+${table === "view_rollups" ? "\\d+" : fromSqlite.length}\\n`),
        );
        if (table === "view_rollups") {
          // SQLite's rollups become slot 0; the crash gap is folded in (its views lie three days back).
          expect(new Set(fromPg.map((row) => row.slot))).toEqual(new Set([0]));
          const total = (rows: Array<Record<string, unknown>>, key: string) =>
            rows.reduce((sum, row) => sum + Number(row[key]), 0);
          expect(total(fromPg, "human")).toBe(total(fromSqlite, "human") + GAP_VIEWS);
          expect(total(fromPg, "bot")).toBe(total(fromSqlite, "bot"));
          continue;
        }
        expect(normaliseRows(fromPg)).toEqual(normaliseRows(fromSqlite));
      }
      const [title] = await db`SELECT title FROM links WHERE link_slug = 'tricky'`;
      expect(title.title).toBe(TRICKY_TITLE);
      const [types] =
        await db`SELECT pg_typeof(created_at)::text AS at, pg_typeof(deleted)::text AS deleted FROM links LIMIT 1`;
      expect(types).toEqual({ at: "timestamp with time zone", deleted: "boolean" });
      const imageName = links.cover!.imageUrl!.replace("/uploads/", "");
      const [image] = await db`SELECT bytes FROM uploads WHERE name = ${imageName}`;
      expect(Buffer.compare(Buffer.from(image.bytes), readFileSync(join(dataDir, "uploads", imageName)))).toBe(0);
    } finally {
      sqlite.close();
    }

    const [copied] =
      await db`SELECT (SELECT max(id) FROM views)::int AS views, (SELECT max(id) FROM user_agents)::int AS agents`;

    // A SQLite server on the original directory (which folds the crash gap at start) and a PostgreSQL one.
    const onSqlite = await pg.node({ DATABASE_URL: "" }, dataDir);
    const snapshotSqlite = await apiSnapshot(onSqlite.url);
    await stopNode(onSqlite, { keepData: true });
    const onPg = await pg.node({ DATABASE_URL: url, UPLOADS_STORE: "db" });
    expect(await apiSnapshot(onPg.url)).toEqual(snapshotSqlite);
    expect((snapshotSqlite as { stats: { humanViews: number } }).stats.humanViews).toBe(40 + 12 + GAP_VIEWS);

    // Every live link serves (and its card and image), the deleted one does not.
    for (const [key, link] of Object.entries(links)) {
      const response = await go(onPg.url, `${link.userSlug}/${link.linkSlug}`, PEOPLE[0]!);
      if (key === "gone") expect(response.status).toBe(404);
      else expect(response.headers.get("location")).toBe(link.targetUrl);
    }
    const card = await (await go(onPg.url, `${links.cover!.userSlug}/cover`, CRAWLERS[0]!)).text();
    expect(card).toContain(links.cover!.imageUrl!);
    const served = await fetch(`${onPg.url}${links.cover!.imageUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(
      Buffer.compare(
        Buffer.from(await served.arrayBuffer()),
        readFileSync(join(dataDir, "uploads", links.cover!.imageUrl!.replace("/uploads/", ""))),
      ),
    ).toBe(0);

    // The session (and its consent) carried over.
    const me = await fetch(`${onPg.url}/api/auth/user`, { headers: { cookie: sessionCookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: "ana@example.com", hasConsent: true });

    // New rows get ids past the copied ones (the identity sequences were moved on), views and agents included.
    const maxLinkId = Math.max(...Object.values(links).map((link) => link.id));
    const added = await apiCall(onPg.url, token, "/api/links", {
      method: "POST",
      json: {
        title: "After",
        description: "the move",
        targetUrl: "https://example.com/after",
        customLinkSlug: "after",
      },
    });
    expect(added.status).toBe(201);
    expect((await added.json()).id).toBe(maxLinkId + 1);
    expect((await go(onPg.url, `${links.cover!.userSlug}/after`, "NewBrowser/1.0 (never seen)")).status).toBe(302);
    await stopNode(onPg);
    // Views on PostgreSQL: the four live links above, one crawler card, and this one.
    const [fresh] = await db`SELECT count(*)::int AS n, min(id)::int AS first FROM views WHERE id > ${copied.views}`;
    expect(fresh).toEqual({ n: 6, first: copied.views + 1 });
    const [agent] = await db`SELECT id FROM user_agents WHERE text = 'NewBrowser/1.0 (never seen)'`;
    expect(agent.id).toBeGreaterThan(copied.agents);

    // Copying again into the same (now non-empty) database is refused and changes nothing.
    const [{ n: viewsBefore }] = await db`SELECT count(*)::int AS n FROM views`;
    const again = await copy(url, { UPLOADS_STORE: "db" });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("already holds LinkPrev data");
    expect(again.stderr).toContain("nothing was copied");
    expect(again.stderr.trim().split("\n").length).toBe(1);
    const [{ n: viewsAfter }] = await db`SELECT count(*)::int AS n FROM views`;
    expect(viewsAfter).toBe(viewsBefore);
  });

  test("with UPLOADS_STORE=s3 the images go to the bucket, and a node on PostgreSQL serves them from there", async () => {
    fake = startFakeS3();
    const { url } = await pg.database();
    const run = await copy(url, fake.env);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Images: 4 copied into the S3 bucket ${fake.bucket}`);
    const name = links.cover!.imageUrl!.replace("/uploads/", "");
    expect(
      Buffer.compare(Buffer.from(fake.objects.get(name)!.bytes), readFileSync(join(dataDir, "uploads", name))),
    ).toBe(0);
    const onPg = await pg.node({ DATABASE_URL: url, ...fake.env });
    expect((await fetch(`${onPg.url}${links.cover!.imageUrl}`)).status).toBe(200);
    await stopNode(onPg);
    expect(fake.refused).toEqual([]);
  });

  test("with UPLOADS_STORE=dir the images stay where they are; bad usage exits 2 without a password in sight", async () => {
    const { url } = await pg.database();
    const run = await copy(url);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Images: UPLOADS_STORE=dir, so they stay in ${join(dataDir, "uploads")}`);

    const noUrl = Bun.spawnSync([process.execPath, cliPath, "admin", "copy-to-postgres", "--data", dataDir], {
      env: { ...process.env, DATABASE_URL: "" },
      stderr: "pipe",
    });
    expect(noUrl.exitCode).toBe(2);
    expect(noUrl.stderr.toString()).toContain("--database-url");
    const badUrl = Bun.spawnSync(
      [
        process.execPath,
        cliPath,
        "admin",
        "copy-to-postgres",
        "--database-url",
        "mysql://ana:s3cret@h/db",
        "--data",
        dataDir,
      ],
      { env: { ...process.env, DATABASE_URL: "" }, stderr: "pipe" },
    );
    expect(badUrl.exitCode).toBe(2);
    expect(badUrl.stderr.toString()).toContain("DATABASE_URL=(not shown");
    expect(badUrl.stderr.toString()).not.toContain("s3cret");
    const noData = Bun.spawnSync(
      [
        process.execPath,
        cliPath,
        "admin",
        "copy-to-postgres",
        "--database-url",
        url,
        "--data",
        join(dataDir, "nothing-here"),
      ],
      { env: { ...process.env, DATABASE_URL: "" }, stderr: "pipe" },
    );
    expect(noData.exitCode).toBe(2);
    expect(noData.stderr.toString()).toContain("There is no SQLite database at");
  });
});
