// The API described: the OpenAPI document validates, documents every /api route the server serves (and nothing
// it does not), its response schemas match what the server really answers, and /docs/api reads it to people.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { API_OPERATIONS, UNDOCUMENTED_API_ROUTES } from "../../src/api-docs/operations.ts";
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
  "GET /admin/link/edit/:linkSlug",
  "GET /admin/link/stats/:linkSlug",
  "GET /admin/link/stats/:linkSlug/csv",
  "GET /docs/api",
]);

let server: TestServer;
let client: ApiClient;
let document: { openapi: string; paths: Record<string, Record<string, { operationId: string }>> };

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
  const documented = new Set(API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`));
  const unaccounted = server.routes.filter(
    (route) => !documented.has(route) && !NOT_API.has(route) && !(route in UNDOCUMENTED_API_ROUTES),
  );
  expect(unaccounted).toEqual([]);
  expect([...documented].filter((route) => !server.routes.includes(route))).toEqual([]);
  // The served document holds them all, one operation id each.
  const ids = Object.values(document.paths).flatMap((methods) =>
    Object.values(methods).map((operation) => operation.operationId),
  );
  expect(ids.sort()).toEqual(API_OPERATIONS.map((operation) => operation.operationId).sort());
});

test("documented response schemas accept what the server really answers", async () => {
  const id = await seedLink(server.sql, client.userId, { linkSlug: "documented" });
  await client.call("/api/tokens", { method: "POST", json: { name: "second" } });
  const domain = (await (
    await client.call("/api/domains", { method: "POST", json: { hostname: "links.documented.test" } })
  ).json()) as { id: number };
  const endpoint = await server.sql.get<{ id: number }>(
    "INSERT INTO webhook_endpoints (user_id, url, events, secret) VALUES (?, 'https://127.0.0.1:9/hooks', '[\"link.created\"]', 'whsec_AAAA') RETURNING id",
    client.userId,
  );
  expect((await client.call(`/api/webhooks/${endpoint!.id}/test`, { method: "POST" })).status).toBe(202);
  const paths: Record<string, string> = {
    "/api/domains/:id": `/api/domains/${domain.id}`,
    "/api/webhooks/:id/deliveries": `/api/webhooks/${endpoint!.id}/deliveries`,
    "/api/links/by-slug/:linkSlug": "/api/links/by-slug/documented",
    "/api/links/:id/views": `/api/links/${id}/views?days=3`,
    "/api/links/:id/platforms": `/api/links/${id}/platforms`,
    "/api/links/check-slug-availability": "/api/links/check-slug-availability?slug=free",
  };
  let checked = 0;
  for (const operation of API_OPERATIONS) {
    const ok = operation.responses[200];
    if (
      operation.method !== "GET" ||
      !ok?.schema ||
      (operation.access === "public" && operation.path.startsWith("/api/auth"))
    )
      continue;
    const response = await client.call(paths[operation.path] ?? operation.path);
    expect({ route: operation.path, status: response.status }).toEqual({ route: operation.path, status: 200 });
    const parsed = ok.schema.safeParse(await response.json());
    expect({ route: operation.path, issues: parsed.error?.issues ?? [] }).toEqual({
      route: operation.path,
      issues: [],
    });
    checked++;
  }
  expect(checked).toBeGreaterThanOrEqual(12);
});

test("every example in the document is valid for the schema beside it", () => {
  const examples = API_OPERATIONS.flatMap((operation) => [
    ...(operation.body?.example !== undefined
      ? [{ at: `${operation.operationId} body`, schema: operation.body.schema, example: operation.body.example }]
      : []),
    ...Object.entries(operation.responses).flatMap(([status, response]) =>
      response.schema && response.example !== undefined
        ? [{ at: `${operation.operationId} ${status}`, schema: response.schema, example: response.example }]
        : [],
    ),
  ]);
  expect(examples.length).toBeGreaterThan(3);
  const invalid = examples.filter(({ schema, example }) => !schema.safeParse(example).success).map(({ at }) => at);
  expect(invalid).toEqual([]);
});

test("an error answers the documented Error shape", async () => {
  const response = await client.call("/api/links", {
    method: "POST",
    json: { title: "", description: "d", targetUrl: "https://example.com/" },
  });
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ message: expect.stringContaining("Title"), field: "title" });
});

test("/docs/api is a readable page without scripts, linked from the footer", async () => {
  const response = await fetch(`${server.url}/docs/api`);
  expect(response.status).toBe(200);
  const html = await response.text();
  expect(html).not.toContain("<script");
  for (const operation of API_OPERATIONS) expect(html).toContain(`id="${operation.operationId}"`);
  expect(html).toContain("POST /api/links");
  expect(html).toContain('id="schema-Link"');
  expect(await (await fetch(`${server.url}/`)).text()).toContain('href="/docs/api"');
});

test("/docs/api renders the descriptions' Markdown (no raw backticks) and says where API tokens are made", async () => {
  const html = await (await fetch(`${server.url}/docs/api`)).text();
  const text = html.replace(/<[^>]*>/g, "");
  expect(text).not.toContain("`");
  expect(html).toContain("<code>Authorization: Bearer lp_…</code>");
  expect(html).toContain('href="/admin?tab=subscription"');
  expect(text).toContain("Dashboard → Subscription → API tokens");
  expect(text).not.toContain("under Settings");
});
