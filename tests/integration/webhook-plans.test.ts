// Webhooks are a Pro and Enterprise feature when billing is on: a basic account is refused by the API with a
// readable message, and its Webhooks page says why instead of offering a form the API would refuse.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiClient, BILLING_ON, seedSession, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ ...BILLING_ON, FETCH_ALLOW_PRIVATE: "127.0.0.1/32" });
});
afterAll(() => server.close());

const endpoint = { url: "http://127.0.0.1:9/hooks", events: ["link.created"], description: "plan check" };

async function webhooksPage(userId: number): Promise<string> {
  const cookie = `lp_session=${(await seedSession(server.sql, userId)).token}`;
  const response = await fetch(`${server.url}/admin/workspace/webhooks`, { headers: { cookie }, redirect: "manual" });
  expect(response.status).toBe(200);
  return response.text();
}

describe("webhook plans with billing on", () => {
  test("a basic account's POST /api/webhooks is a 403 that names the plans, and nothing is stored", async () => {
    const basic = await apiClient(server, "basic");
    const refused = await basic.call("/api/webhooks", { method: "POST", json: endpoint });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBe(
      "Webhooks are available on the Pro and Enterprise plans. Upgrade at /pricing.",
    );
    expect(await (await basic.call("/api/webhooks")).json()).toEqual([]);
  });

  test("a pro account adds the same endpoint", async () => {
    const pro = await apiClient(server, "pro");
    expect((await pro.call("/api/webhooks", { method: "POST", json: endpoint })).status).toBe(201);
  });

  test("a basic account's Webhooks page says why, with no form to add an endpoint", async () => {
    const html = await webhooksPage((await apiClient(server, "basic")).userId);
    expect(html).toContain("Webhooks are available on the Pro and Enterprise plans.");
    expect(html).toContain('href="/pricing"');
    expect(html).not.toContain("Add endpoint");
  });

  test("a pro account's Webhooks page offers the form", async () => {
    const html = await webhooksPage((await apiClient(server, "pro")).userId);
    expect(html).toContain("Add endpoint");
    expect(html).not.toContain("Webhooks are available on the Pro and Enterprise plans.");
  });
});
