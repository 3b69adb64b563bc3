// Starts a real LinkPrev server on a free port with its own temporary data directory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateSecret, hashSecret } from "../../src/auth/tokens.ts";
import type { MovingClock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config/config.ts";
import { linkChange } from "../../src/db/change.ts";
import { startServer, type RunningServer } from "../../src/server.ts";
import { newTestDatabase } from "./postgres-test-cluster.ts";
import { copyMigratedSqlite } from "./sqlite-template.ts";
import { freePort } from "./free-port.ts";
import { testEngine } from "./test-engine.ts";
import { postgresTestDb, sqliteTestDb, type TestDb } from "./test-db.ts";

export { freePort } from "./free-port.ts";

export { testEngine } from "./test-engine.ts";

export type TestServer = RunningServer & {
  dataDir: string;
  /** A second connection to the same database, for assertions and seeding (SQLite or PostgreSQL alike). */
  sql: TestDb;
  close: () => Promise<void>;
};

/** `clock`: the server's time (tests/helpers/clock.ts), its app workers' included. */
export async function startTestServer(env: Record<string, string> = {}, clock?: MovingClock): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), "linkprev-test-"));
  const port = await freePort();
  const databaseUrl = testEngine === "postgres" ? await newTestDatabase() : undefined;
  const config = loadConfig(
    {},
    {
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      NODE_ENV: "test",
      RELEASE: "test",
      // One line per request would bury the test report; tests that read the lines set LOG_FORMAT.
      LOG_FORMAT: "off",
      // Tests make many links from new accounts; tests/integration/safety-limits.test.ts turns the brakes on.
      NEW_ACCOUNT_LINKS: "0",
      TARGET_HOST_LINKS_PER_HOUR: "0",
      // A shared test machine can take longer than the real 20 s over an image; image-work-limits.test.ts sets its own.
      IMAGE_DEADLINE_MS: "120000",
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
  );
  if (!config.postgres && !env.DATA_DIR) copyMigratedSqlite(config.dbPath);
  const server = await startServer(config, clock);
  const sql = databaseUrl ? postgresTestDb(databaseUrl) : sqliteTestDb(config.dbPath);
  sql.linkSeeded = server.changed;
  return {
    ...server,
    dataDir,
    sql,
    close: async () => {
      await sql.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let seedCounter = 0;

/** The personal workspace of the user whose id is bound to this `?` (every user has one: src/workspaces/personal.ts). */
export const PERSONAL_WORKSPACE = "(SELECT id FROM workspaces WHERE personal_user_id = ?)";

/** Inserts a user straight into the database (sign-in is tested on its own). */
/** A user as sign-in writes it; having accepted the terms (API writes need that) unless `consent: false`. */
export async function seedUser(
  sql: TestDb,
  fields: { email?: string; userSlug?: string; consent?: boolean } = {},
): Promise<{ id: number; userSlug: string; email: string; workspaceId: number }> {
  const n = ++seedCounter;
  const email = fields.email ?? `user${n}-${Date.now()}@example.com`;
  const userSlug = fields.userSlug ?? `user${n}`;
  const row = (await sql.get<{ id: number }>(
    `INSERT INTO users (email, user_slug) VALUES (?, ?) RETURNING id`,
    email,
    userSlug,
  ))!;
  // As sign-up makes it (src/workspaces/personal.ts).
  const workspace = (await sql.get<{ id: number }>(
    "INSERT INTO workspaces (slug, name, personal_user_id) VALUES (?, 'Personal', ?) RETURNING id",
    userSlug,
    row.id,
  ))!;
  await sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'owner')",
    workspace.id,
    row.id,
  );
  if (fields.consent !== false)
    await sql.run(
      "INSERT INTO user_consents (user_id, terms_accepted, privacy_accepted) VALUES (?, ?, ?)",
      row.id,
      true,
      true,
    );
  return { id: row.id, userSlug, email, workspaceId: workspace.id };
}

/** Accepts the terms with an API token, as a CLI user does (POST /api/auth/consent). */
export async function acceptTerms(baseUrl: string, token: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/auth/consent`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ termsAccepted: true, privacyAccepted: true }),
  });
  if (response.status !== 200) throw new Error(`accepting the terms: ${response.status} ${await response.text()}`);
}

export async function seedLink(
  sql: TestDb,
  userId: number,
  fields: { linkSlug: string; targetUrl?: string; title?: string; description?: string; imageUrl?: string | null },
): Promise<number> {
  const row = await sql.get<{ id: number }>(
    `INSERT INTO links (user_id, workspace_id, link_slug, target_url, title, description, image_url) VALUES (?, ${PERSONAL_WORKSPACE}, ?, ?, ?, ?, ?) RETURNING id`,
    userId,
    userId,
    fields.linkSlug,
    fields.targetUrl ?? "https://example.com/article",
    fields.title ?? "A custom title",
    fields.description ?? "A custom description",
    fields.imageUrl ?? null,
  );
  // The link cache only learns of new addresses from announcements (src/link-cache/link-cache.ts).
  const owner = await sql.get<{ userSlug: string }>(`SELECT user_slug AS "userSlug" FROM users WHERE id = ?`, userId);
  if (owner) sql.linkSeeded?.(linkChange(owner.userSlug, fields.linkSlug));
  return row!.id;
}

export { crawlerAgents } from "./crawler-agents.ts";

/** Inserts a subscription row the way billing writes them. */
export async function seedSubscription(
  sql: TestDb,
  userId: number,
  planId: "basic" | "pro" | "enterprise",
  fields: { status?: string; cancelAtPeriodEnd?: boolean; currentPeriodEnd?: number } = {},
): Promise<void> {
  await sql.run(
    `INSERT INTO subscriptions (user_id, workspace_id, stripe_subscription_id, stripe_price_id, status, plan_id, current_period_start, current_period_end, cancel_at_period_end)
     VALUES (?, ${PERSONAL_WORKSPACE}, ?, ?, ?, ?, ?, ?, ?)`,
    userId,
    userId,
    `sub_${crypto.randomUUID()}`,
    `price_${planId}`,
    fields.status ?? "active",
    planId,
    new Date(Date.now() - 86_400_000),
    new Date(fields.currentPeriodEnd ?? Date.now() + 29 * 86_400_000),
    fields.cancelAtPeriodEnd ?? false,
  );
}

export type ApiClient = {
  userId: number;
  userSlug: string;
  /** Their personal workspace (src/workspaces/personal.ts). */
  workspaceId: number;
  call: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
};

/** A new user (on `plan`, or none) calling the API with an API token of theirs; redirects are not followed. */
export async function apiClient(
  server: TestServer,
  plan: "basic" | "pro" | "enterprise" | null,
  slug?: string,
): Promise<ApiClient> {
  const user = await seedUser(server.sql, { userSlug: slug });
  if (plan) await seedSubscription(server.sql, user.id, plan);
  const { token } = await seedApiToken(server.sql, user.id, "test");
  return {
    userId: user.id,
    userSlug: user.userSlug,
    workspaceId: user.workspaceId,
    call: (path, init = {}) => {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${token}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set("content-type", "application/json");
        body = JSON.stringify(init.json);
      }
      return fetch(`${server.url}${path}`, { ...init, headers, body, redirect: "manual" });
    },
  };
}

/** Billing on (links check subscriptions) without any call to Stripe. */
export const BILLING_ON = { STRIPE_SECRET_KEY: "sk_test_unused", STRIPE_WEBHOOK_SECRET: "whsec_unused" };

/** Google sign-in configured (the screens use the spec's words), without any call to Google. */
export const GOOGLE_ON = { GOOGLE_CLIENT_ID: "client-unused", GOOGLE_CLIENT_SECRET: "secret-unused" };

/** A session row for the user, as sign-in writes it; the cookie token. */
export async function seedSession(sql: TestDb, userId: number): Promise<{ token: string }> {
  const token = generateSecret();
  await sql.run(
    "INSERT INTO sessions (sid, user_id, sess, expire) VALUES (?, ?, ?, ?)",
    hashSecret(token),
    userId,
    JSON.stringify({ userId, createdAt: Date.now() }),
    new Date(Date.now() + 30 * 86_400_000),
  );
  return { token };
}

/** An API token row for the user, as POST /api/tokens writes it; the token shown once. */
export async function seedApiToken(sql: TestDb, userId: number, name = "test"): Promise<{ id: number; token: string }> {
  const token = `lp_${generateSecret()}`;
  const row = await sql.get<{ id: number }>(
    `INSERT INTO api_tokens (user_id, workspace_id, name, token_hash) VALUES (?, ${PERSONAL_WORKSPACE}, ?, ?) RETURNING id`,
    userId,
    userId,
    name,
    hashSecret(token),
  );
  return { id: row!.id, token };
}
