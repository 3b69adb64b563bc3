// Workspace settings → Audit log (src/pages/audit-log.tsx), on SQLite and PostgreSQL: the server-drawn table shows
// 50 rows newest first and an "Older" link that follows the API's cursor to the end; a member below admin sees
// none of it; a cursor that is not one the page gave starts from the newest.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { apiClient, seedSession, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let ann: ApiClient;
let bob: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  ann = await apiClient(server, null, "page-ann");
  bob = await apiClient(server, null, "page-bob");
  const created = await ann.call("/api/workspaces", { method: "POST", json: { slug: "paged", name: "Paged" } });
  const team = (await created.json()) as { id: number };
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'member')",
    team.id,
    bob.userId,
  );
  for (let n = 1; n <= 51; n++) {
    const renamed = await ann.call(`/api/workspaces/${team.id}`, { method: "PATCH", json: { name: `Paged ${n}` } });
    expect(renamed.status).toBe(200);
  }
});
afterAll(() => server.close());

async function page(userId: number, path: string): Promise<string> {
  const cookie = `lp_session=${(await seedSession(server.sql, userId)).token}`;
  const response = await fetch(`${server.url}${path}`, { headers: { cookie }, redirect: "manual" });
  expect(response.status).toBe(200);
  return response.text();
}

const bodyRows = (html: string) => (html.match(/<tr/g) ?? []).length - 1;
const olderLink = (html: string) => html.match(/href="([^"]*cursor=[^"]*)"[^>]*>Older</)?.[1]?.replaceAll("&amp;", "&");

test("50 rows a page, newest first, and Older follows the cursor to the oldest row", async () => {
  const first = await page(ann.userId, "/admin/workspace/audit?workspace=paged");
  expect(bodyRows(first)).toBe(50);
  expect(first).toContain("workspace.update");
  expect(first).toContain('href="/api/workspaces/');
  expect(first).toContain("Download CSV");
  const older = olderLink(first);
  expect(older).toMatch(/^\/admin\/workspace\/audit\?workspace=paged&cursor=\d+$/);

  const second = await page(ann.userId, older!);
  expect(bodyRows(second)).toBe(1);
  expect(olderLink(second)).toBeUndefined();
});

test("a cursor the page did not give starts from the newest; a member sees no log", async () => {
  const odd = await page(ann.userId, "/admin/workspace/audit?workspace=paged&cursor=%3Cscript%3E");
  expect(bodyRows(odd)).toBe(50);

  const member = await page(bob.userId, "/admin/workspace/audit?workspace=paged");
  expect(member).toContain("Your role in this workspace does not show this section.");
  expect(member).not.toContain("workspace.update");
});
