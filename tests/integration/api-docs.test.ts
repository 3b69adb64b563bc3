// The API described: the OpenAPI document, generated from the routes' declarations (src/api-docs/), validates,
// documents every /api route the server serves (and nothing it does not), its response schemas match what the
// server really answers, and /docs/api reads it to people.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { openApiPath } from "../../src/api-docs/openapi.ts";
import { apiClient, seedLink, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

/** Served, deliberately outside the API document: pages, the short links and files, health and webhooks' pages. */
const NOT_API = new Set([
  "GET /go/:userSlug/:linkSlug",
  "HEAD /go/:userSlug/:linkSlug",
  "GET /go/:userSlug/:linkSlug/:version",
  "HEAD /go/:userSlug/:linkSlug/:version",
  "POST /go/:userSlug/:linkSlug",
  "POST /go/:userSlug/:linkSlug/:version",
  "GET /uploads/:name",
  "GET /assets/:name",
  "GET /favicon.ico",
  "GET /healthz",
  "GET /livez",
  "GET /readyz",
  "GET /login/:token",
  "GET /invites/:token",
  "POST /invites/:token",
  "GET /payment-success",
  "GET /",
  "GET /pricing",
  "GET /about",
  "GET /privacy",
  "GET /account-deleted",
  "GET /terms",
  "GET /contact",
  "GET /admin",
  "GET /admin/link/new",
  "GET /admin/domains",
  "GET /admin/webhooks",
  "GET /admin/workspace",
  "GET /admin/workspace/members",
  "GET /admin/workspace/tokens",
  "GET /admin/workspace/domains",
  "GET /admin/workspace/webhooks",
  "GET /admin/workspace/billing",
  "GET /admin/workspace/audit",
  "GET /account",
  "GET /account/data",
  "GET /account/delete",
  "GET /admin/link/edit/:linkSlug",
  "GET /admin/link/stats/:linkSlug",
  "GET /admin/link/stats/:linkSlug/csv",
  "GET /docs/api",
  "GET /docs/api/:section",
  "GET /api/test/slow", // tests only (TEST_SLOW_ROUTE_MS)
]);

type Operation = {
  operationId: string;
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
};

let server: TestServer;
let client: ApiClient;
let document: { openapi: string; paths: Record<string, Record<string, Operation>> };
/** Every documented operation, keyed as `METHOD /openapi/{path}`. */
const operations = () =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, path, operation })),
  );

beforeAll(async () => {
  server = await startTestServer();
  client = await apiClient(server, null, "docs");
  document = await (await fetch(`${server.url}/api/openapi.json`)).json();
});
afterAll(() => server.close());

test("the document is valid OpenAPI 3.1", async () => {
  expect(document.openapi).toBe("3.1.0");
  const result = await new Validator().validate(document as never);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("every route the server serves is documented or explicitly left out, and every documented one is served", () => {
  const served = server.routes.map((route) => {
    const [method, path] = route.split(" ") as [string, string];
    return { route, key: `${method} ${openApiPath(path)}` };
  });
  const documented = new Set(operations().map(({ key }) => key));
  expect(served.filter(({ route, key }) => !documented.has(key) && !NOT_API.has(route))).toEqual([]);
  expect([...documented].filter((key) => !served.some((route) => route.key === key))).toEqual([]);
  // One operation id each, never two alike.
  const ids = operations().map(({ operation }) => operation.operationId);
  expect(ids.length).toBeGreaterThan(40);
  expect(new Set(ids).size).toBe(ids.length);
});

test("documented response schemas accept what the server really answers", async () => {
  const id = await seedLink(server.sql, client.userId, { linkSlug: "documented" });
  await client.call("/api/tokens", { method: "POST", json: { name: "second" } });
  const domain = (await (
    await client.call("/api/domains", { method: "POST", json: { hostname: "links.documented.test" } })
  ).json()) as { id: number };
  const endpoint = await server.sql.get<{ id: number }>(
    "INSERT INTO webhook_endpoints (user_id, workspace_id, url, events, secret) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), 'https://127.0.0.1:9/hooks', '[\"link.created\"]', 'whsec_AAAA') RETURNING id",
    client.userId,
    client.userId,
  );
  expect((await client.call(`/api/webhooks/${endpoint!.id}/test`, { method: "POST" })).status).toBe(202);
  // A crawler fetch on record, so that the fetches route answers an item.
  await (
    await fetch(`${server.url}/go/${client.userSlug}/documented`, { headers: { "user-agent": "Twitterbot/1.0" } })
  ).text();
  await server.flushViews();
  const workspace = await server.sql.get<{ id: number }>(
    "SELECT id FROM workspaces WHERE personal_user_id = ?",
    client.userId,
  );
  const paths: Record<string, string> = {
    "/api/workspaces/{id}/invites": `/api/workspaces/${workspace!.id}/invites`,
    "/api/workspaces/{id}/members": `/api/workspaces/${workspace!.id}/members`,
    "/api/workspaces/{id}/audit": `/api/workspaces/${workspace!.id}/audit`,
    "/api/workspaces/{id}/export": `/api/workspaces/${workspace!.id}/export`,
    "/api/workspaces/{id}/tokens": `/api/workspaces/${workspace!.id}/tokens`,
    "/api/domains/{id}": `/api/domains/${domain.id}`,
    "/api/workspaces/{id}": `/api/workspaces/${client.workspaceId}`,
    "/api/webhooks/{id}/deliveries": `/api/webhooks/${endpoint!.id}/deliveries`,
    "/api/links/by-slug/{linkSlug}": "/api/links/by-slug/documented",
    "/api/links/{id}/views": `/api/links/${id}/views?days=3`,
    "/api/links/{id}/platforms": `/api/links/${id}/platforms`,
    "/api/links/{id}/fetches": `/api/links/${id}/fetches`,
    "/api/links/check-slug-availability": "/api/links/check-slug-availability?slug=free",
  };
  // The server checks each answer against its route's response schema, the one the document shows: an answer that
  // does not fit is a 500, so a 200 here is an answer that fits.
  let checked = 0;
  for (const { key, path, operation } of operations()) {
    if (!key.startsWith("GET ") || !operation.responses["200"]?.content?.["application/json"]?.schema) continue;
    const response = await client.call(paths[path] ?? path);
    expect({ path, status: response.status }).toEqual({ path, status: 200 });
    checked++;
  }
  expect(checked).toBeGreaterThanOrEqual(12);
});

test("the document carries examples (each checked against its schema when the document is built)", () => {
  const examples = operations().flatMap(({ operation }) => [
    ...Object.values(operation.requestBody?.content ?? {}),
    ...Object.values(operation.responses).flatMap((response) => Object.values(response.content ?? {})),
  ]);
  expect(examples.filter((content) => content.example !== undefined).length).toBeGreaterThan(3);
});

test("an error answers the documented Error shape", async () => {
  const response = await client.call("/api/links", {
    method: "POST",
    json: { title: "", description: "d", targetUrl: "https://example.com/" },
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ message: expect.stringContaining("Title"), field: "title" });
});

test("/docs/api is readable pages without scripts: an index linking every operation to its tag's page", async () => {
  const index = await fetch(`${server.url}/docs/api`);
  expect(index.status).toBe(200);
  const html = await index.text();
  const pages = [...new Set([...html.matchAll(/href="(\/docs\/api\/[a-z-]+)[#"]/g)].map((match) => match[1]!))];
  expect(pages).toContain("/docs/api/links");
  expect(pages).toContain("/docs/api/schemas");
  let all = html;
  for (const page of pages) {
    const response = await fetch(`${server.url}${page}`);
    expect({ page, status: response.status }).toEqual({ page, status: 200 });
    all += await response.text();
  }
  expect(all).not.toContain("<script");
  for (const { operation } of operations()) {
    expect(html).toContain(`#${operation.operationId}"`);
    expect(all).toContain(`id="${operation.operationId}"`);
  }
  expect(all).toContain("POST /api/links");
  expect(all).toContain('id="schema-Link"');
  expect((await fetch(`${server.url}/docs/api/no-such-tag`)).status).toBe(404);
  expect(await (await fetch(`${server.url}/`)).text()).toContain('href="/docs/api"');
});

test("/docs/api renders the descriptions' Markdown (no raw backticks) and says where API tokens are made", async () => {
  const html = await (await fetch(`${server.url}/docs/api`)).text();
  const links = await (await fetch(`${server.url}/docs/api/links`)).text();
  const text = (html + links).replace(/<[^>]*>/g, "");
  expect(text).not.toContain("`");
  expect(html).toContain("<code>Authorization: Bearer lp_…</code>");
  expect(html).toContain('href="/admin/workspace/tokens"');
  expect(text).toContain("Workspace settings → API tokens");
  expect(text).not.toContain("under Settings");
});
