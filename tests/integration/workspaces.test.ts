// Team workspaces over HTTP (docs/decisions/0063), on SQLite and PostgreSQL: made through the API, named by
// ?workspace=, by the path or by the cookie, their links served at /go/{workspace}/{link}; one namespace of slugs with
// users and retired addresses; a deleted workspace's addresses answer 410 for good; the role decides what a member may do.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runAdmin } from "../helpers/admin-cli.ts";
import {
  apiClient,
  crawlerAgents,
  seedSession,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

const PERSON = crawlerAgents.people["chrome-windows"]!;
let server: TestServer;
let ann: ApiClient;
let bob: ApiClient;
let team: { id: number; slug: string; name: string; role: string };

beforeAll(async () => {
  server = await startTestServer();
  ann = await apiClient(server, null, "ann");
  bob = await apiClient(server, null, "bob");
  const created = await ann.call("/api/workspaces", { method: "POST", json: { slug: "Acme", name: "Acme marketing" } });
  expect(created.status).toBe(201);
  team = await created.json();
});
afterAll(() => server.close());

/** Makes `user` a member of the team with `role`, as accepting an invite will. */
const join = (user: ApiClient, role: string) =>
  server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)",
    team.id,
    user.userId,
    role,
  );

const createLink = (client: ApiClient, query: string, slug: string) =>
  client.call(`/api/links${query}`, {
    method: "POST",
    json: { targetUrl: `https://acme.example/${slug}`, title: slug, description: "d", customLinkSlug: slug },
  });

test("the creator owns the new workspace; the personal one comes first in the list", async () => {
  expect(team).toEqual({ id: team.id, slug: "acme", name: "Acme marketing", role: "owner" });
  const listed = (await (await ann.call("/api/workspaces")).json()) as Array<{ slug: string; role: string }>;
  expect(listed.map((w) => [w.slug, w.role])).toEqual([
    ["ann", "owner"],
    ["acme", "owner"],
  ]);
  expect(await (await ann.call(`/api/workspaces/${team.id}`)).json()).toEqual(team);
});

test("a team's links are its own, served at /go/{workspace}/{link}; its slug may repeat a personal one's", async () => {
  expect((await createLink(ann, "?workspace=acme", "launch")).status).toBe(201);
  expect((await createLink(ann, "", "launch")).status).toBe(201);
  const inTeam = (await (await ann.call("/api/links?workspace=acme")).json()) as Array<{ shortUrl: string }>;
  expect(inTeam.map((l) => new URL(l.shortUrl).pathname)).toEqual(["/go/acme/launch"]);
  const personal = (await (await ann.call("/api/links")).json()) as Array<{ shortUrl: string }>;
  expect(personal.map((l) => new URL(l.shortUrl).pathname)).toEqual(["/go/ann/launch"]);
  const served = await fetch(`${server.url}/go/acme/launch`, { redirect: "manual", headers: { "user-agent": PERSON } });
  expect([served.status, served.headers.get("location")]).toEqual([302, "https://acme.example/launch"]);
  // The path names the workspace too, and a session's cookie remembers one.
  expect((await ann.call(`/api/workspaces/${team.id}?workspace=ann`)).status).toBe(200);
  const { token } = await seedSession(server.sql, ann.userId);
  const byCookie = await fetch(`${server.url}/api/links`, {
    headers: { cookie: `lp_session=${token}; workspace=acme` },
  });
  expect(((await byCookie.json()) as unknown[]).length).toBe(1);
});

test("someone who is not a member hears 404 for the workspace, whichever way it is named", async () => {
  expect((await bob.call("/api/links?workspace=acme")).status).toBe(404);
  expect((await bob.call(`/api/workspaces/${team.id}`)).status).toBe(404);
  expect((await bob.call("/api/links?workspace=nobody")).status).toBe(404);
  // An id of ten digits or more names no workspace either; it never falls back to the caller's own.
  for (const id of ["1000000000", "2147483648", "9007199254740991"]) {
    expect((await bob.call(`/api/workspaces/${id}`)).status).toBe(404);
    expect((await bob.call(`/api/workspaces/${id}/members`)).status).toBe(404);
    expect((await bob.call(`/api/workspaces/${id}`, { method: "PATCH", json: { name: "Mine" } })).status).toBe(404);
  }
  const { token } = await seedSession(server.sql, bob.userId);
  // A stale cookie is no error: the personal workspace answers.
  const stale = await fetch(`${server.url}/api/links`, { headers: { cookie: `lp_session=${token}; workspace=acme` } });
  expect([stale.status, await stale.json()]).toEqual([200, []]);
});

test("the role decides: a viewer reads, a member writes links, a billing member sees no links, only an owner deletes", async () => {
  const viewer = await apiClient(server, null);
  const member = await apiClient(server, null);
  const billing = await apiClient(server, null);
  await join(viewer, "viewer");
  await join(member, "member");
  await join(billing, "billing");
  expect((await viewer.call("/api/links?workspace=acme")).status).toBe(200);
  expect((await createLink(viewer, "?workspace=acme", "v")).status).toBe(403);
  expect((await createLink(member, "?workspace=acme", "m")).status).toBe(201);
  expect((await billing.call("/api/links?workspace=acme")).status).toBe(403);
  expect((await member.call(`/api/workspaces/${team.id}`, { method: "PATCH", json: { name: "x" } })).status).toBe(403);
  expect((await member.call(`/api/workspaces/${team.id}?confirmSlug=acme`, { method: "DELETE" })).status).toBe(403);
  // Who created the link is kept, and it belongs to the workspace.
  const row = await server.sql.get<{ userId: number; workspaceId: number }>(
    `SELECT user_id AS "userId", workspace_id AS "workspaceId" FROM links WHERE link_slug = 'm'`,
  );
  expect(row).toEqual({ userId: member.userId, workspaceId: team.id });
});

test("one namespace: a workspace cannot take a user's or a retired slug, and a new user cannot take a workspace's", async () => {
  const taken = (slug: string) => ann.call("/api/workspaces", { method: "POST", json: { slug, name: "Taken" } });
  expect((await taken("bob")).status).toBe(409);
  expect((await taken("acme")).status).toBe(409);
  expect((await taken("not a slug")).status).toBe(400);
  runAdmin(server, "login-link", "--email", "acme@example.com");
  const newcomer = await server.sql.get<{ slug: string }>(
    `SELECT user_slug AS "slug" FROM users WHERE email = 'acme@example.com'`,
  );
  expect(newcomer!.slug).not.toBe("acme");
  const personal = await server.sql.get<{ slug: string }>(
    `SELECT w.slug AS "slug" FROM workspaces w JOIN users u ON u.id = w.personal_user_id WHERE u.email = 'acme@example.com'`,
  );
  expect(personal).toEqual({ slug: newcomer!.slug });
});

test("renamed keeps its slug; deleted, its addresses answer 410 and its slug is never given again", async () => {
  const renamed = await ann.call(`/api/workspaces/${team.id}`, { method: "PATCH", json: { name: "Acme growth" } });
  expect(await renamed.json()).toEqual({ ...team, name: "Acme growth" });
  const personal = (await (await ann.call("/api/workspaces")).json()) as Array<{ id: number }>;
  const personalDelete = await ann.call(`/api/workspaces/${personal[0]!.id}`, {
    method: "DELETE",
    json: { confirmSlug: "ann" },
  });
  expect(personalDelete.status).toBe(409);
  // The slug must be typed: a 400 that names it.
  const unconfirmed = await ann.call(`/api/workspaces/${team.id}`, { method: "DELETE" });
  expect([unconfirmed.status, ((await unconfirmed.json()) as { message: string }).message]).toEqual([
    400,
    "confirmSlug: Type the workspace's slug, acme, to confirm the deletion",
  ]);
  expect(
    (await ann.call(`/api/workspaces/${team.id}`, { method: "DELETE", json: { confirmSlug: "acm" } })).status,
  ).toBe(400);
  expect(
    (await ann.call(`/api/workspaces/${team.id}`, { method: "DELETE", json: { confirmSlug: "acme" } })).status,
  ).toBe(204);
  const gone = await fetch(`${server.url}/go/acme/launch`, { redirect: "manual", headers: { "user-agent": PERSON } });
  expect(gone.status).toBe(410);
  expect((await ann.call("/api/links?workspace=acme")).status).toBe(404);
  expect((await ann.call("/api/workspaces", { method: "POST", json: { slug: "acme", name: "Again" } })).status).toBe(
    409,
  );
});
