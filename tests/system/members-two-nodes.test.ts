// Two LinkPrev nodes on one PostgreSQL: a member removed on node A is refused on node B within a second, by the
// session they had and by the token they made in the workspace (docs/decisions/0065). Skipped, saying so, only
// without PostgreSQL.
import { describe, expect, test } from "bun:test";
import { generateSecret, hashSecret } from "../../src/auth/tokens.ts";
import { eventually } from "../helpers/eventually.ts";
import { postgresInstalled, usePgNodes } from "../helpers/cluster.ts";
import { apiCall, seedPgUserWithToken, type Node } from "../helpers/nodes.ts";

const available = postgresInstalled("the two-node member test");

describe.skipIf(!available)("a removed member on two nodes", () => {
  const pg = usePgNodes([1, 2]);

  test("removed on A, the member's session and team token are refused on B within a second", async () => {
    const { db, nodes } = pg();
    const [a, b] = nodes;
    const ana = await seedPgUserWithToken(db, "ana");
    const bob = await seedPgUserWithToken(db, "bob");
    const [team] = await db`INSERT INTO workspaces (slug, name) VALUES ('acme', 'Acme') RETURNING id`;
    await db`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (${team.id}, ${ana.id}, 'owner')`;
    const invited = await apiCall(a.url, ana.token, `/api/workspaces/${team.id}/invites`, {
      method: "POST",
      json: { email: "bob@example.com", role: "member" },
    });
    // Ana's token is her personal workspace's: it may act in every workspace she belongs to.
    expect(invited.status).toBe(201);
    const { url } = (await invited.json()) as { url: string };
    const accepted = await apiCall(b.url, bob.token, `/api/invites/${url.split("/invites/")[1]}/accept`, {
      method: "POST",
    });
    expect(accepted.status).toBe(200);

    const teamToken = `lp_${generateSecret()}`;
    await db`INSERT INTO api_tokens (user_id, workspace_id, name, token_hash) VALUES (${bob.id}, ${team.id}, 'team', ${hashSecret(teamToken)})`;
    const session = generateSecret();
    await db`INSERT INTO sessions (sid, user_id, sess, expire) VALUES (${hashSecret(session)}, ${bob.id}, '{}', ${new Date(Date.now() + 86_400_000)})`;
    const asBobSession = () =>
      fetch(`${b.url}/api/links?workspace=acme`, { headers: { cookie: `lp_session=${session}` } });
    expect((await asBobSession()).status).toBe(200);
    expect((await apiCall(b.url, teamToken, "/api/links")).status).toBe(200);

    const removed = await apiCall(a.url, ana.token, `/api/workspaces/${team.id}/members/${bob.id}`, {
      method: "DELETE",
    });
    expect(removed.status).toBe(204);
    const started = performance.now();
    await eventually(
      async () => {
        expect((await asBobSession()).status).toBe(404);
        expect((await apiCall(b.url, teamToken, "/api/links")).status).toBe(401);
      },
      { timeoutMs: 1000, what: "B refusing the removed member" },
    );
    console.log(`B refused the removed member ${(performance.now() - started).toFixed(0)} ms after A removed them`);
    // Their own workspace is untouched.
    expect((await apiCall(b.url, bob.token, "/api/links")).status).toBe(200);
  });
});
