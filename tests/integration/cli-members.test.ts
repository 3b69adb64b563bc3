// `linkprev workspaces members|invite`: in the workspace commands act in (the global --workspace names one), the CLI
// prints the accept URL of an invite it makes and the members with their roles; a wrong role is refused before
// anything is sent.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cliEnv, runCli } from "../helpers/cli.ts";
import { seedApiToken, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let env: Record<string, string>;
let owner: { id: number; email: string };
let team: { id: number; slug: string };
beforeAll(async () => {
  server = await startTestServer();
  owner = await seedUser(server.sql, { email: `cli-owner-${crypto.randomUUID().slice(0, 6)}@example.com` });
  const slug = `acme${crypto.randomUUID().slice(0, 6)}`;
  const row = await server.sql.get<{ id: number }>(
    "INSERT INTO workspaces (slug, name) VALUES (?, 'Acme') RETURNING id",
    slug,
  );
  team = { id: row!.id, slug };
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, 'owner')",
    team.id,
    owner.id,
  );
  const { token } = await seedApiToken(server.sql, owner.id, "cli");
  env = cliEnv(server, token);
});
afterAll(() => server.close());

const run = (args: string[]) => runCli(args, { env });

test("invite prints the accept URL; members lists the workspace's people by role", async () => {
  const invited = await run(["--workspace", team.slug, "workspaces", "invite", "Bea@Example.com", "--role", "admin"]);
  expect(invited.code).toBe(0);
  expect(invited.stdout).toContain("Invited bea@example.com as admin, until ");
  expect(invited.stdout).toMatch(new RegExp(`Accept URL .*: ${server.url}/invites/[a-z0-9]+\\n`));
  const pending = await server.sql.get<{ n: number }>(
    "SELECT count(*) AS n FROM workspace_invites WHERE workspace_id = ? AND email = 'bea@example.com' AND role = 'admin'",
    team.id,
  );
  expect(Number(pending!.n)).toBe(1);

  const members = await run(["--workspace", team.slug, "workspaces", "members"]);
  expect(members.code).toBe(0);
  expect(members.stdout).toMatch(new RegExp(`USER\\s+EMAIL\\s+ROLE\\n${owner.id}\\s+${owner.email}\\s+owner\\n`));
  // Without --workspace: the token's own (personal) workspace, where the owner is alone too.
  const personal = await run(["workspaces", "members", "--json"]);
  expect(JSON.parse(personal.stdout)).toEqual([{ userId: owner.id, email: owner.email, role: "owner" }]);
});

test("a role that does not exist, or a workspace that is not yours, is refused with what to do", async () => {
  const badRole = await run(["workspaces", "invite", "cy@example.com", "--role", "boss"]);
  expect(badRole.code).toBe(2);
  expect(badRole.stderr).toContain('--role is one of owner, admin, member, viewer, billing; got "boss"');
  const notMine = await run(["--workspace", "nobody-here", "workspaces", "members"]);
  expect(notMine.code).toBe(1);
  expect(notMine.stderr).toContain("You are not a member of a workspace nobody-here: linkprev workspaces list");
});
