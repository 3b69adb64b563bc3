// Links may not target this server under any of its names (they would loop: one visit counted many views), while
// other services on loopback stay valid targets. Over real HTTP, SQLite or PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { apiClient, BILLING_ON, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ...BILLING_ON, ALIAS_HOSTS: "links.intranet.test, lp.example.org:8443" });
});
afterAll(() => server.close());

const card = { title: "Loop", description: "Points somewhere" };
const REFUSED = "targetUrl: The target URL cannot be a LinkPrev short URL or another address of this server";

test("two links pointing at each other through 127.0.0.1 and localhost: the second is refused, nothing loops", async () => {
  const alice = await apiClient(server, "pro");
  const port = server.port;
  const first = await alice.call("/api/links", {
    method: "POST",
    json: { ...card, customLinkSlug: "ping", targetUrl: "https://example.com/start" },
  });
  expect(first.status).toBe(201);
  const second = await alice.call("/api/links", {
    method: "POST",
    json: { ...card, customLinkSlug: "pong", targetUrl: `http://localhost:${port}/go/${alice.userSlug}/ping` },
  });
  expect(second.status).toBe(400);
  expect(await second.json()).toEqual({ message: REFUSED, field: "targetUrl" });
  // Nor can the first be turned into the loop's other half through another loopback spelling.
  const edit = await alice.call("/api/links/by-slug/ping", {
    method: "PUT",
    json: { ...card, targetUrl: `http://2130706433:${port}/go/${alice.userSlug}/pong` },
  });
  expect(edit.status).toBe(400);
  expect((await edit.json()).message).toBe(REFUSED);
});

test("every name of this instance is refused: loopback forms on its port, PUBLIC_URL, ALIAS_HOSTS", async () => {
  const bob = await apiClient(server, "pro");
  const port = server.port;
  const names = [
    `http://LOCALHOST.:${port}/go/x/y`,
    `http://127.1.2.3:${port}/go/x/y`,
    `http://[::1]:${port}/go/x/y`,
    `http://[::ffff:127.0.0.1]:${port}/go/x/y`,
    `http://user:pw@localhost:${port}/go/x/y`,
    `${server.ctx.config.publicUrl}/pricing`,
    "https://links.intranet.test/go/x/y",
    "https://LP.example.org.:8443/go/x/y",
  ];
  for (const targetUrl of names) {
    const response = await bob.call("/api/links", { method: "POST", json: { ...card, targetUrl } });
    expect({ targetUrl, status: response.status }).toEqual({ targetUrl, status: 400 });
  }
  const stored = await server.sql.get<{ n: number }>(
    "SELECT CAST(count(*) AS INTEGER) AS n FROM links WHERE user_id = ?",
    bob.userId,
  );
  expect(Number(stored!.n)).toBe(0);
});

test("another service on loopback, and an alias on another port, stay valid targets", async () => {
  const carol = await apiClient(server, "pro");
  for (const targetUrl of [
    `http://127.0.0.1:${server.port + 1}/go/x/y`,
    "http://localhost:8080/wiki",
    "https://lp.example.org/go/x/y",
  ]) {
    const response = await carol.call("/api/links", { method: "POST", json: { ...card, targetUrl } });
    expect({ targetUrl, status: response.status }).toEqual({ targetUrl, status: 201 });
  }
});
