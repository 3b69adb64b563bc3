// A team's webhook events go to the team's endpoints only (docs/decisions/0063): link.created and link.clicked of a
// team's link never reach its creator's own endpoints in another workspace, and the other way round. Both engines.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const PERSON = crawlerAgents.people["chrome-windows"]!;
let server: TestServer;
let ann: ApiClient;
const endpoints = { team: 0, personal: 0 };

/** An endpoint of the workspace for both events, as POST /api/webhooks writes it (its URL is never reached here). */
const endpointOf = async (workspaceId: number) =>
  (await server.sql.get<{ id: number }>(
    `INSERT INTO webhook_endpoints (workspace_id, user_id, url, events, secret) VALUES (?, ?, 'https://127.0.0.1:9/hooks', '["link.created","link.clicked"]', 'whsec_AAAA') RETURNING id`,
    workspaceId,
    ann.userId,
  ))!.id;
const deliveries = (endpointId: number, type: string) =>
  server.sql.all<{ payload: string }>(
    "SELECT payload FROM webhook_deliveries WHERE endpoint_id = ? AND type = ?",
    endpointId,
    type,
  );

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_CLICK_WINDOW_MS: "200" });
  ann = await apiClient(server, null, "hooks-ann");
  const team = (await (
    await ann.call("/api/workspaces", { method: "POST", json: { slug: "hooks-team", name: "Hooks" } })
  ).json()) as { id: number };
  endpoints.team = await endpointOf(team.id);
  endpoints.personal = await endpointOf(ann.workspaceId);
});
afterAll(() => server.close());

test("a team link's link.created and link.clicked go to the team's endpoint, not to its creator's own", async () => {
  const created = await ann.call("/api/links?workspace=hooks-team", {
    method: "POST",
    json: { targetUrl: "https://example.com/t", title: "t", description: "d", customLinkSlug: "clicked" },
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  expect((await deliveries(endpoints.team, "link.created")).length).toBe(1);
  expect(await deliveries(endpoints.personal, "link.created")).toEqual([]);
  // The view writer reads who subscribes at each window's start: visit until an event shows it counted.
  await eventually(async () => {
    await fetch(`${server.url}/go/hooks-team/clicked`, { redirect: "manual", headers: { "user-agent": PERSON } });
    await server.flushViews();
    const clicked = await deliveries(endpoints.team, "link.clicked");
    expect(clicked.map((row) => JSON.parse(row.payload).data.id)).toContain(id);
  });
  expect(await deliveries(endpoints.personal, "link.clicked")).toEqual([]);
});
