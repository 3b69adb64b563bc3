// The audit log (docs/decisions/0068), on SQLite and PostgreSQL: every write in a workspace leaves a row with who
// (and which token), what, on what and when; owners and admins read it page by page and as CSV; nobody else does.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { apiClient, seedSession, type ApiClient, type TestServer, startTestServer } from "../helpers/server.ts";

let server: TestServer;
let ann: ApiClient;
let bob: ApiClient;
let team: { id: number; slug: string };

type AuditPage = {
  items: Array<{
    at: string;
    actor: { userId: number | null; email: string | null; tokenId: number | null };
    action: string;
    target: { kind: string; id: string | null };
    fields: string[];
  }>;
  nextCursor: string | null;
};

beforeAll(async () => {
  server = await startTestServer();
  ann = await apiClient(server, null, "audit-ann");
  bob = await apiClient(server, null, "audit-bob");
  const created = await ann.call("/api/workspaces", { method: "POST", json: { slug: "audited", name: "Audited" } });
  team = await created.json();
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'member')",
    team.id,
    bob.userId,
  );
});
afterAll(() => server.close());

const audit = async (client: ApiClient, query = "") =>
  (await (await client.call(`/api/workspaces/${team.id}/audit${query}`)).json()) as AuditPage;

test("each write in the workspace is logged, newest first, with its actor, token, target and field names only", async () => {
  const created = await bob.call("/api/links?workspace=audited", {
    method: "POST",
    json: {
      targetUrl: "https://acme.example/secret-path",
      title: "Launch",
      description: "d",
      customLinkSlug: "launch",
    },
  });
  expect(created.status).toBe(201);
  const link = (await created.json()) as { id: number };
  const renamed = await ann.call(`/api/workspaces/${team.id}`, { method: "PATCH", json: { name: "Audited team" } });
  expect(renamed.status).toBe(200);
  const changed = await ann.call(`/api/workspaces/${team.id}/members/${bob.userId}`, {
    method: "PATCH",
    json: { role: "viewer" },
  });
  expect(changed.status).toBe(200);

  const page = await audit(ann);
  const bobToken = await server.sql.get<{ id: number }>("SELECT id FROM api_tokens WHERE user_id = ?", bob.userId);
  expect(page.items.map(({ actor, action, target, fields }) => ({ actor, action, target, fields }))).toEqual([
    {
      actor: { userId: ann.userId, email: expect.any(String), tokenId: expect.any(Number) },
      action: "member.role",
      target: { kind: "member", id: String(bob.userId) },
      fields: ["role"],
    },
    {
      actor: { userId: ann.userId, email: expect.any(String), tokenId: expect.any(Number) },
      action: "workspace.update",
      target: { kind: "workspace", id: String(team.id) },
      fields: ["name"],
    },
    {
      actor: { userId: bob.userId, email: expect.any(String), tokenId: bobToken!.id },
      action: "link.create",
      target: { kind: "link", id: String(link.id) },
      fields: ["customLinkSlug", "description", "targetUrl", "title"],
    },
  ]);
  // Field names, never values.
  expect(JSON.stringify(page)).not.toContain("secret-path");
  expect(Date.parse(page.items[0]!.at)).toBeGreaterThan(Date.now() - 60_000);
  // Reads are not logged, and another workspace's writes are not in this log.
  await ann.call("/api/links?workspace=audited");
  await ann.call("/api/links", {
    method: "POST",
    json: { targetUrl: "https://a.example/", title: "t", description: "d" },
  });
  expect((await audit(ann)).items).toHaveLength(3);
});

test("a session's write has no token; pages follow the cursor to the end", async () => {
  const { token } = await seedSession(server.sql, ann.userId);
  const response = await fetch(`${server.url}/api/links?workspace=audited`, {
    method: "POST",
    headers: { cookie: `lp_session=${token}`, origin: server.url, "content-type": "application/json" },
    body: JSON.stringify({ targetUrl: "https://acme.example/", title: "t", description: "d" }),
  });
  expect(response.status).toBe(201);
  const first = await audit(ann, "?limit=2");
  expect(first.items[0]!.actor.tokenId).toBeNull();
  expect(first.items).toHaveLength(2);
  const second = await audit(ann, `?limit=2&cursor=${first.nextCursor}`);
  expect(second.items.map((item) => item.action)).toEqual(["workspace.update", "link.create"]);
  expect(second.nextCursor).toBeNull();
  expect((await ann.call(`/api/workspaces/${team.id}/audit?limit=0`)).status).toBe(400);
});

test("the CSV holds the same rows, formula-safe; members below admin may not read the log", async () => {
  const csv = await ann.call(`/api/workspaces/${team.id}/audit.csv`);
  expect(csv.headers.get("content-type")).toContain("text/csv");
  const lines = (await csv.text()).trim().split("\r\n");
  expect(lines[0]).toBe('"at","user id","email","token id","action","target kind","target id","fields"');
  expect(lines.slice(1).map((line) => line.split(",")[4])).toEqual([
    '"link.create"',
    '"member.role"',
    '"workspace.update"',
    '"link.create"',
  ]);
  expect((await bob.call(`/api/workspaces/${team.id}/audit`)).status).toBe(403);
  expect((await bob.call(`/api/workspaces/${team.id}/audit.csv`)).status).toBe(403);
});
