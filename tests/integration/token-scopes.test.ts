// API tokens with scopes and an expiry (issue 50 item 4, docs/decisions/0065), on the engine the run chose: a token
// does what its scopes allow within its creator's role, never makes tokens or deletes the account without
// workspace:admin, stops at its expiry; a token made before scopes keeps every power.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Browser } from "../helpers/browser.ts";
import { seedApiToken, seedSession, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT: "10000" });
});
afterAll(() => server.close());

async function signedIn() {
  const user = await seedUser(server.sql, { email: `scopes-${crypto.randomUUID().slice(0, 8)}@example.com` });
  const browser = new Browser(server.url);
  browser.cookies.set("lp_session", (await seedSession(server.sql, user.id)).token);
  return { user, browser };
}

const call = (token: string, path: string, init: { method?: string; json?: unknown } = {}) =>
  fetch(`${server.url}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
const link = () => ({
  title: "Scoped",
  description: "A card",
  targetUrl: "https://example.com/scoped",
  customLinkSlug: `s${crypto.randomUUID().slice(0, 8)}`,
});

async function tokenWith(browser: Browser, body: Record<string, unknown>) {
  const made = await browser.fetch("/api/tokens", { method: "POST", json: { name: "scoped", ...body } });
  expect(made.status).toBe(201);
  return (await made.json()) as {
    token: string;
    scopes: string[] | null;
    expiresAt: string | null;
    createdByUserId: number;
  };
}

test("a token reads and writes what its scopes say, and never makes tokens or deletes the account without workspace:admin", async () => {
  const { user, browser } = await signedIn();
  const reader = await tokenWith(browser, { scopes: ["links:read"], expiresInDays: 30 });
  expect(reader.scopes).toEqual(["links:read"]);
  expect(reader.createdByUserId).toBe(user.id);
  expect(Date.parse(reader.expiresAt!) - Date.now()).toBeGreaterThan(29.9 * 86_400_000);

  expect((await call(reader.token, "/api/links")).status).toBe(200);
  const refused = await call(reader.token, "/api/links", { method: "POST", json: link() });
  expect(refused.status).toBe(403);
  expect((await refused.json()).message).toContain("lacks the links:write scope");
  const noTokens = await call(reader.token, "/api/tokens", { method: "POST", json: { name: "more" } });
  expect(noTokens.status).toBe(403);
  expect((await noTokens.json()).message).toContain("lacks the workspace:admin scope");
  const noDeletion = await call(reader.token, "/api/account", { method: "DELETE", json: { confirmEmail: user.email } });
  expect(noDeletion.status).toBe(403);
  expect((await noDeletion.json()).message).toContain("lacks the workspace:admin scope");
  expect((await call(reader.token, "/api/auth/user")).status).toBe(200);
  const workspace = await server.sql.get<{ id: number }>(
    "SELECT id FROM workspaces WHERE personal_user_id = ?",
    user.id,
  );
  const noInvites = await call(reader.token, `/api/workspaces/${workspace!.id}/invites`, {
    method: "POST",
    json: { email: "friend@example.com", role: "member" },
  });
  expect(noInvites.status).toBe(403);
  expect((await noInvites.json()).message).toContain("lacks the workspace:admin scope");

  const writer = await tokenWith(browser, { scopes: ["links:write"] });
  expect((await call(writer.token, "/api/links", { method: "POST", json: link() })).status).toBe(201);
  expect(
    (await call(writer.token, "/api/domains", { method: "POST", json: { hostname: "a.scoped.test" } })).status,
  ).toBe(403);

  const admin = await tokenWith(browser, { scopes: ["workspace:admin"] });
  const made = await call(admin.token, "/api/tokens", {
    method: "POST",
    json: { name: "by a token", scopes: ["links:read"] },
  });
  expect(made.status).toBe(201);
});

test("a token made before scopes keeps every power; an expired token is refused", async () => {
  const { user, browser } = await signedIn();
  const { token: old } = await seedApiToken(server.sql, user.id, "old");
  expect((await call(old, "/api/links", { method: "POST", json: link() })).status).toBe(201);
  expect((await call(old, "/api/tokens", { method: "POST", json: { name: "from an old one" } })).status).toBe(201);
  const listed = (await (await browser.fetch("/api/tokens")).json()) as Array<{ name: string; scopes: unknown }>;
  expect(listed.find((t) => t.name === "old")?.scopes).toBeNull();

  const brief = await tokenWith(browser, { scopes: ["links:read"], expiresInDays: 1 });
  expect((await call(brief.token, "/api/links")).status).toBe(200);
  await server.sql.run(
    "UPDATE api_tokens SET expires_at = ? WHERE name = 'scoped' AND user_id = ?",
    new Date(Date.now() - 1),
    user.id,
  );
  expect((await call(brief.token, "/api/links")).status).toBe(401);
});

test("scopes and expiry are checked: an unknown scope, none, or a day count out of range is a 400 saying so", async () => {
  const { browser } = await signedIn();
  const answers = await Promise.all(
    [{ scopes: ["links:everything"] }, { scopes: [] }, { expiresInDays: 0 }, { expiresInDays: 1.5 }].map(
      async (body) => {
        const response = await browser.fetch("/api/tokens", { method: "POST", json: { name: "bad", ...body } });
        return [response.status, (await response.json()).message];
      },
    ),
  );
  expect(answers).toEqual([
    [400, expect.stringContaining("A scope is one of links:read, links:write, analytics:read")],
    [400, expect.stringContaining("Give at least one scope")],
    [400, expect.stringContaining("expiresInDays is at least 1")],
    [400, expect.stringContaining("expiresInDays is a whole number of days")],
  ]);
});

test("stats, views, platforms, crawler fetches and the export need analytics:read; links:read alone does not open them", async () => {
  const { user, browser } = await signedIn();
  const { token: old } = await seedApiToken(server.sql, user.id, "old");
  const made = await call(old, "/api/links", { method: "POST", json: link() });
  const { id } = (await made.json()) as { id: number };
  const analytics = [
    "/api/links/stats",
    `/api/links/${id}/views`,
    `/api/links/${id}/platforms`,
    `/api/links/${id}/fetches`,
    "/api/links/export.csv",
  ];
  const statuses = async (token: string, paths: string[]) =>
    Promise.all(paths.map(async (path) => (await call(token, path)).status));

  const reader = await tokenWith(browser, { scopes: ["links:read"] });
  expect(await statuses(reader.token, analytics)).toEqual([403, 403, 403, 403, 403]);
  const refused = await call(reader.token, "/api/links/stats");
  expect((await refused.json()).message).toContain("lacks the analytics:read scope");
  expect(await statuses(reader.token, ["/api/links"])).toEqual([200]);

  const analyst = await tokenWith(browser, { scopes: ["analytics:read"] });
  expect(await statuses(analyst.token, analytics)).toEqual([200, 200, 200, 200, 200]);
  expect(await statuses(analyst.token, ["/api/links"])).toEqual([403]);
  expect((await call(analyst.token, "/api/links", { method: "POST", json: link() })).status).toBe(403);

  // A token made before scopes, and one with workspace:admin, keep every power.
  expect(await statuses(old, analytics)).toEqual([200, 200, 200, 200, 200]);
  const admin = await tokenWith(browser, { scopes: ["workspace:admin"] });
  expect(await statuses(admin.token, analytics)).toEqual([200, 200, 200, 200, 200]);
});
