// A user with one of everything the database can hold about them (the export and deletion tests), and the
// table-by-table check that none of it is left.
import { hashSecret, generateSecret } from "../../src/auth/tokens.ts";
import type { FakeStripe } from "../fakes/stripe.ts";
import { makePng } from "./images.ts";
import { seedApiToken, seedSession, seedUser } from "./server.ts";
import { subscribeInFakeStripe } from "./subscriptions.ts";
import type { TestDb } from "./test-db.ts";

type Server = { url: string; sql: TestDb };

export type SeededAccount = {
  id: number;
  email: string;
  userSlug: string;
  token: string;
  sessionToken: string;
  subscriptionId: string;
  liveSlug: string;
  deletedSlug: string;
  imageUrl: string;
  paymentIntentId: string;
  userAgent: string;
};

const DAY_MS = 86_400_000;

/** Links made through the API (one with an uploaded image, one then deleted); the rest inserted as the server writes it. */
export async function seedFullAccount(server: Server, stripe: FakeStripe, label: string): Promise<SeededAccount> {
  const email = `${label}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const user = await seedUser(server.sql, {
    email,
    userSlug: `${label}${Math.floor(Math.random() * 1e6)}`.slice(0, 20),
  });
  const subscriptionId = await subscribeInFakeStripe(server as never, stripe, user.id, "pro");
  const { token } = await seedApiToken(server.sql, user.id, `${label} token`);
  const { token: sessionToken } = await seedSession(server.sql, user.id);
  await server.sql.run(
    "INSERT INTO login_links (token_hash, user_id, expires_at) VALUES (?, ?, ?)",
    hashSecret(generateSecret()),
    user.id,
    new Date(Date.now() + 600_000),
  );
  const paymentIntentId = `pi_${label}_${crypto.randomUUID().slice(0, 6)}`;
  await server.sql.run(
    "INSERT INTO payments (user_id, workspace_id, stripe_payment_intent_id, stripe_invoice_id, amount, currency, status, payment_method, receipt_url) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?, ?, ?, ?, ?, ?)",
    user.id,
    user.id,
    paymentIntentId,
    `in_${label}`,
    1900,
    "eur",
    "paid",
    "card",
    `https://invoice.stripe.test/${label}`,
  );

  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const form = new FormData();
  for (const [key, value] of Object.entries({
    targetUrl: `https://example.com/${label}`,
    title: `${label} live`,
    description: `The ${label} card`,
    customLinkSlug: `${label}-live`,
  }))
    form.append(key, value);
  form.append("image", new File([makePng(1200, 630)], "card.png", { type: "image/png" }));
  const live = await api("/api/links", { method: "POST", body: form });
  if (live.status !== 201) throw new Error(`seeding a link: ${live.status} ${await live.text()}`);
  const liveLink = (await live.json()) as { id: number; linkSlug: string; imageUrl: string };
  const gone = await api("/api/links", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      targetUrl: `https://example.com/${label}/old`,
      title: `${label} old`,
      description: "Deleted since",
      customLinkSlug: `${label}-old`,
    }),
  });
  const goneLink = (await gone.json()) as { id: number; linkSlug: string };
  if ((await api(`/api/links/${goneLink.id}`, { method: "DELETE" })).status !== 204)
    throw new Error("seeding a deleted link");

  // A default QR style with a logo, and the live link's own style (docs/decisions/0067).
  await server.sql.run(
    "INSERT INTO qr_styles (workspace_id, style, logo, logo_width, logo_height) VALUES ((SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?, 1, 1)",
    user.id,
    JSON.stringify({ fg: "#1a237e", logo: true }),
    Buffer.from(makePng(1, 1)).toString("base64"),
  );
  await server.sql.run("INSERT INTO link_qr_styles (link_id, style) VALUES (?, ?)", liveLink.id, '{"shape":"dots"}');
  // The per-host index's row of a rule's address, as a rule write leaves it.
  await server.sql.run(
    "INSERT INTO destinations (link_id, field, url, target_domain) VALUES (?, 'expiredUrl', ?, 'example.com')",
    liveLink.id,
    `https://example.com/${label}/over`,
  );
  const userAgent = `Mozilla/5.0 (${label} browser)`;
  const agent = (await server.sql.get<{ id: number }>(
    "INSERT INTO user_agents (text) VALUES (?) RETURNING id",
    userAgent,
  ))!;
  await insertView(server.sql, {
    userId: user.id,
    linkId: liveLink.id,
    agentId: agent.id,
    at: Date.now() - DAY_MS,
    ip: "203.0.113.0",
  });
  await insertView(server.sql, {
    userId: user.id,
    linkId: goneLink.id,
    agentId: agent.id,
    at: Date.now() - 2 * DAY_MS,
    ip: "198.51.100.0",
  });
  await insertRollup(server.sql, liveLink.id, new Date(Date.now() - DAY_MS).toISOString().slice(0, 10), "", 3, 0);
  await insertRollup(
    server.sql,
    liveLink.id,
    new Date(Date.now() - DAY_MS).toISOString().slice(0, 10),
    "facebook",
    0,
    2,
  );
  // People by referrer host, as the view writer keeps them ('' for none).
  for (const [host, human] of [
    ["", 1],
    [`${label}.example.net`, 2],
  ] as const) {
    await server.sql.run(
      "INSERT INTO referrer_rollups (link_id, day, host, human) VALUES (?, ?, ?, ?)",
      liveLink.id,
      new Date(Date.now() - DAY_MS).toISOString().slice(0, 10),
      host,
      human,
    );
  }
  // A webhook endpoint (as POST /api/webhooks writes it) with a delivery waiting; its URL is never reached here.
  const endpoint = (await server.sql.get<{ id: number }>(
    "INSERT INTO webhook_endpoints (user_id, workspace_id, url, description, events, secret, enabled) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?, ?, ?, ?) RETURNING id",
    user.id,
    user.id,
    `https://hooks.example.com/${label}`,
    `${label} hooks`,
    '["link.created"]',
    "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    false,
  ))!;
  await server.sql.run(
    "INSERT INTO webhook_deliveries (endpoint_id, user_id, workspace_id, event_id, type, payload, next_attempt_at, created_at) VALUES (?, ?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, 'link.created', '{}', ?, ?)",
    endpoint.id,
    user.id,
    user.id,
    `msg_${label}`,
    Date.now(),
    Date.now(),
  );
  return {
    id: user.id,
    email,
    userSlug: user.userSlug,
    token,
    sessionToken,
    subscriptionId,
    liveSlug: liveLink.linkSlug,
    deletedSlug: goneLink.linkSlug,
    imageUrl: liveLink.imageUrl,
    paymentIntentId,
    userAgent,
  };
}

/** The stored names of every file of the account's live links' uploads: each upload's kept source and its three renditions. */
export async function uploadFilesOf(baseUrl: string, account: { token: string }): Promise<string[]> {
  const response = await fetch(`${baseUrl}/api/links`, { headers: { authorization: `Bearer ${account.token}` } });
  const links = (await response.json()) as Array<{ sourceImage: { url: string }; images: Record<string, string> }>;
  return links
    .flatMap((link) => [link.sourceImage.url, ...Object.values(link.images)])
    .map((url) => url.replace(/^\/uploads\//, ""));
}

export async function insertView(
  sql: TestDb,
  view: { userId: number; linkId: number; agentId: number | null; at: number; ip?: string; isBot?: boolean },
): Promise<void> {
  await sql.run(
    "INSERT INTO views (user_id, link_id, ip, user_agent_id, is_bot, platform, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)",
    view.userId,
    view.linkId,
    view.ip ?? "192.0.2.0",
    view.agentId,
    view.isBot ?? false,
    view.isBot ? "facebook" : null,
    new Date(view.at),
  );
}

/** A rollup row as the view writer keeps them (PostgreSQL's have a node slot). */
export async function insertRollup(
  sql: TestDb,
  linkId: number,
  day: string,
  platform: string,
  human: number,
  bot: number,
): Promise<void> {
  if (sql.engine === "postgres")
    await sql.run(
      "INSERT INTO view_rollups (link_id, day, platform, slot, human, bot) VALUES (?, ?, ?, 0, ?, ?)",
      linkId,
      day,
      platform,
      human,
      bot,
    );
  else
    await sql.run(
      "INSERT INTO view_rollups (link_id, day, platform, human, bot) VALUES (?, ?, ?, ?, ?)",
      linkId,
      day,
      platform,
      human,
      bot,
    );
}

/** Rows still tied to the user, table by table. */
export async function rowsLeftOf(sql: TestDb, userId: number): Promise<Record<string, number>> {
  const count = async (query: string, ...params: Array<string | number>) =>
    Number((await sql.get<{ n: number }>(query, ...params))!.n);
  return {
    users: await count("SELECT count(*) AS n FROM users WHERE id = ?", userId),
    workspaces: await count("SELECT count(*) AS n FROM workspaces WHERE personal_user_id = ?", userId),
    workspace_members: await count("SELECT count(*) AS n FROM workspace_members WHERE user_id = ?", userId),
    links: await count("SELECT count(*) AS n FROM links WHERE user_id = ?", userId),
    views: await count("SELECT count(*) AS n FROM views WHERE user_id = ?", userId),
    view_rollups: await count("SELECT count(*) AS n FROM view_rollups WHERE link_id NOT IN (SELECT id FROM links)"),
    referrer_rollups: await count(
      "SELECT count(*) AS n FROM referrer_rollups WHERE link_id NOT IN (SELECT id FROM links)",
    ),
    subscriptions: await count("SELECT count(*) AS n FROM subscriptions WHERE user_id = ?", userId),
    payments: await count("SELECT count(*) AS n FROM payments WHERE user_id = ?", userId),
    user_consents: await count("SELECT count(*) AS n FROM user_consents WHERE user_id = ?", userId),
    sessions: await count("SELECT count(*) AS n FROM sessions WHERE user_id = ?", userId),
    api_tokens: await count("SELECT count(*) AS n FROM api_tokens WHERE user_id = ?", userId),
    login_links: await count("SELECT count(*) AS n FROM login_links WHERE user_id = ?", userId),
    webhook_endpoints: await count("SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ?", userId),
    webhook_deliveries: await count("SELECT count(*) AS n FROM webhook_deliveries WHERE user_id = ?", userId),
    qr_styles: await count(
      "SELECT count(*) AS n FROM qr_styles WHERE workspace_id NOT IN (SELECT id FROM workspaces) OR workspace_id IN (SELECT id FROM workspaces WHERE personal_user_id = ?)",
      userId,
    ),
    link_qr_styles: await count("SELECT count(*) AS n FROM link_qr_styles WHERE link_id NOT IN (SELECT id FROM links)"),
    destinations: await count(
      "SELECT count(*) AS n FROM destinations WHERE link_id NOT IN (SELECT id FROM links) OR (domain_id IS NOT NULL AND domain_id NOT IN (SELECT id FROM domains))",
    ),
  };
}

export const NOTHING_LEFT = {
  users: 0,
  workspaces: 0,
  workspace_members: 0,
  links: 0,
  views: 0,
  view_rollups: 0,
  referrer_rollups: 0,
  subscriptions: 0,
  payments: 0,
  user_consents: 0,
  sessions: 0,
  api_tokens: 0,
  login_links: 0,
  webhook_endpoints: 0,
  webhook_deliveries: 0,
  qr_styles: 0,
  link_qr_styles: 0,
  destinations: 0,
};
