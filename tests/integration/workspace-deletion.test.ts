// Leaving and deleting (issue 50 item 8, docs/decisions/0070), on SQLite and PostgreSQL: an account that is the only
// owner of a team with members cannot be deleted (the message says how to hand the team on); a member's deletion
// leaves the team its links; deleting a team (its slug typed) cancels its Stripe subscription, retires its addresses,
// frees its domains, revokes its tokens and removes its webhooks.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";
import { subscribeInFakeStripe } from "../helpers/subscriptions.ts";
import {
  apiClient,
  crawlerAgents,
  seedSession,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

const PERSON = crawlerAgents.people["chrome-windows"]!;
let stripe: FakeStripe;
let server: TestServer;
let ann: ApiClient;
let bob: ApiClient;
let team: { id: number; slug: string };
let subscriptionId: string;

beforeAll(async () => {
  stripe = startFakeStripe();
  server = await startTestServer(stripe.env);
  ann = await apiClient(server, "pro", "ann");
  bob = await apiClient(server, "pro", "bob");
  const created = await ann.call("/api/workspaces", { method: "POST", json: { slug: "crew", name: "Crew" } });
  team = await created.json();
  // The team's own pro subscription (as a checkout for it records).
  subscriptionId = await subscribeInFakeStripe(server, stripe, ann.userId, "pro");
  await server.sql.run(
    "UPDATE subscriptions SET workspace_id = ? WHERE stripe_subscription_id = ?",
    team.id,
    subscriptionId,
  );
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'admin')",
    team.id,
    bob.userId,
  );
});
afterAll(async () => {
  await server.close();
  stripe.stop();
});

const go = (path: string) =>
  fetch(`${server.url}/go/${path}`, { redirect: "manual", headers: { "user-agent": PERSON } });
const createLink = (client: ApiClient, slug: string) =>
  client.call("/api/links?workspace=crew", {
    method: "POST",
    json: { targetUrl: `https://crew.example/${slug}`, title: slug, description: "d", customLinkSlug: slug },
  });

test("the only owner of a team with members cannot delete the account; the message says how to transfer", async () => {
  const refused = await ann.call("/api/account", { method: "DELETE", json: { confirmEmail: await emailOf(ann) } });
  expect(refused.status).toBe(409);
  const { message } = (await refused.json()) as { message: string };
  expect(message).toContain("Crew (crew)");
  expect(message).toContain(`PATCH /api/workspaces/${team.id}/members/{userId} {"role":"owner"}`);
  expect((await ann.call("/api/workspaces")).status).toBe(200);
});

test("an admin exports the workspace without secrets; a member's own export lists their memberships", async () => {
  expect((await createLink(ann, "launch")).status).toBe(201);
  await server.sql.run(
    `INSERT INTO webhook_endpoints (workspace_id, user_id, url, events, secret) VALUES (?, ?, 'https://127.0.0.1:9/export', '["link.created"]', 'whsec_NEVER_EXPORTED')`,
    team.id,
    ann.userId,
  );
  const exported = await bob.call(`/api/workspaces/${team.id}/export`);
  expect(exported.status).toBe(200);
  const text = await exported.text();
  expect(text).not.toContain("whsec_NEVER_EXPORTED");
  const document = JSON.parse(text) as {
    workspace: unknown;
    members: Array<{ role: string }>;
    links: Array<{ shortUrl: string }>;
    webhookEndpoints: Array<{ url: string }>;
  };
  expect(document.workspace).toEqual({ slug: "crew", name: "Crew" });
  expect(document.members.map((member) => member.role)).toEqual(["owner", "admin"]);
  expect(document.links.map((link) => new URL(link.shortUrl).pathname)).toEqual(["/go/crew/launch"]);
  expect(document.webhookEndpoints.map((endpoint) => endpoint.url)).toEqual(["https://127.0.0.1:9/export"]);
  const own = (await (await bob.call("/api/account/export")).json()) as { memberships: unknown };
  expect(own.memberships).toEqual([
    { slug: "bob", name: "Personal", role: "owner" },
    { slug: "crew", name: "Crew", role: "admin" },
  ]);
});

test("a member's deletion leaves the team its links and its members; their tokens there are revoked", async () => {
  expect((await createLink(bob, "bobs")).status).toBe(201);
  const teamToken = await bob.call("/api/tokens?workspace=crew", { method: "POST", json: { name: "crew bot" } });
  const { token } = (await teamToken.json()) as { token: string };
  const gone = await bob.call("/api/account", { method: "DELETE", json: { confirmEmail: await emailOf(bob) } });
  expect(gone.status).toBe(204);
  expect((await go("crew/bobs")).status).toBe(302);
  expect((await go("bob/anything")).status).toBe(410);
  const listed = (await (await ann.call("/api/links?workspace=crew")).json()) as Array<{ linkSlug: string }>;
  expect(listed.map((link) => link.linkSlug).sort()).toEqual(["bobs", "launch"]);
  const members = (await (await ann.call(`/api/workspaces/${team.id}/members`)).json()) as Array<{ role: string }>;
  expect(members.map((member) => member.role)).toEqual(["owner"]);
  expect((await fetch(`${server.url}/api/links`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
});

test("deleting the team cancels its subscription, retires its addresses, frees its domain, revokes tokens and webhooks", async () => {
  const domain = await ann.call("/api/domains?workspace=crew", { method: "POST", json: { hostname: "go.crew.test" } });
  expect(domain.status).toBe(201);
  // As POST /api/webhooks writes it (its URL is never reached here).
  await server.sql.run(
    `INSERT INTO webhook_endpoints (workspace_id, user_id, url, events, secret) VALUES (?, ?, 'https://127.0.0.1:9/hooks', '["link.created"]', 'whsec_AAAA')`,
    team.id,
    ann.userId,
  );
  const { token } = (await (
    await ann.call("/api/tokens?workspace=crew", { method: "POST", json: { name: "crew ci" } })
  ).json()) as { token: string };

  const wrong = await ann.call(`/api/workspaces/${team.id}`, { method: "DELETE", json: { confirmSlug: "ann" } });
  expect([wrong.status, ((await wrong.json()) as { message: string }).message]).toEqual([
    400,
    "confirmSlug: Type the workspace's slug, crew, to confirm the deletion",
  ]);
  expect((await go("crew/bobs")).status).toBe(302);
  expect((await ann.call(`/api/workspaces/${team.id}?confirmSlug=crew`, { method: "DELETE" })).status).toBe(204);

  expect(stripe.subscriptions.get(subscriptionId)!.status).toBe("canceled");
  expect((await go("crew/bobs")).status).toBe(410);
  expect((await fetch(`${server.url}/api/links`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  for (const table of ["links", "domains", "webhook_endpoints", "api_tokens", "subscriptions"])
    expect({ table, rows: await server.sql.all(`SELECT id FROM ${table} WHERE workspace_id = ?`, team.id) }).toEqual({
      table,
      rows: [],
    });
  // The domain is free to add again, and the slug is never given again.
  expect((await ann.call("/api/domains", { method: "POST", json: { hostname: "go.crew.test" } })).status).toBe(201);
  expect((await ann.call("/api/workspaces", { method: "POST", json: { slug: "crew", name: "Again" } })).status).toBe(
    409,
  );
  // With no team left to hand on, the account can go.
  expect(
    (await ann.call("/api/account", { method: "DELETE", json: { confirmEmail: await emailOf(ann) } })).status,
  ).toBe(204);
});

test("a team whose deletion a crash interrupted after its mark is nobody's to act in until the next start ends it", async () => {
  const cara = await apiClient(server, "pro", "cara");
  const half = (await (
    await cara.call("/api/workspaces", { method: "POST", json: { slug: "half", name: "Half" } })
  ).json()) as { id: number };
  const { token } = (await (
    await cara.call("/api/tokens?workspace=half", { method: "POST", json: { name: "half ci" } })
  ).json()) as { token: string };
  expect((await cara.call("/api/links?workspace=half")).status).toBe(200);
  // What the deletion's first step commits (src/account/workspace-removal.ts markWorkspaceRows): its slug retired.
  await server.sql.run("INSERT INTO retired_user_slugs (user_slug) VALUES ('half')");

  const slugs = ((await (await cara.call("/api/workspaces")).json()) as { slug: string }[]).map((w) => w.slug);
  expect(slugs).not.toContain("half");
  expect((await cara.call("/api/links?workspace=half")).status).toBe(404);
  expect((await cara.call(`/api/workspaces/${half.id}`)).status).toBe(404);
  expect((await fetch(`${server.url}/api/links`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  // A browser that remembered it falls back to the personal workspace.
  const { token: session } = await seedSession(server.sql, cara.userId);
  const remembered = await fetch(`${server.url}/api/subscriptions/active`, {
    headers: { cookie: `lp_session=${session}; workspace=half` },
  });
  expect(remembered.status).toBe(200);
});

async function emailOf(client: ApiClient): Promise<string> {
  const row = await server.sql.get<{ email: string }>("SELECT email FROM users WHERE id = ?", client.userId);
  return row!.email;
}
