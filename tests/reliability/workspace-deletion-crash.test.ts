// A workspace deletion killed part-way (kill -9 from the tests-only hook TEST_CRASH_DURING_DELETE_AFTER, the account
// deletion's) is finished by the next start, on either engine: its subscription is canceled at Stripe, its addresses
// answer 410, its rows are gone, and the owner's personal workspace is untouched.
import { expect, test } from "bun:test";
import { describeEachDeletionCrash } from "../helpers/deletion-crash.ts";
import { seedApiToken, seedUser } from "../helpers/server.ts";
import { subscribeInFakeStripe } from "../helpers/subscriptions.ts";

const PERSON = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
};

describeEachDeletionCrash((crashing) => {
  test("the next start finishes it and leaves the owner's personal workspace whole", async () => {
    const { sql, stripe } = crashing;
    const owner = await seedUser(sql);
    const { token } = await seedApiToken(sql, owner.id);
    const api = (path: string, init: { method?: string; json?: unknown } = {}) =>
      fetch(`${crashing.node.url}${path}`, {
        method: init.method ?? "GET",
        headers: {
          authorization: `Bearer ${token}`,
          ...(init.json === undefined ? {} : { "content-type": "application/json" }),
        },
        body: init.json === undefined ? undefined : JSON.stringify(init.json),
      });
    const server = { url: crashing.node.url, sql } as never;
    await subscribeInFakeStripe(server, stripe, owner.id, "pro");
    const team = (await (
      await api("/api/workspaces", { method: "POST", json: { slug: "doomed", name: "Doomed" } })
    ).json()) as {
      id: number;
    };
    const teamSubscription = await subscribeInFakeStripe(server, stripe, owner.id, "pro");
    await sql.run(
      "UPDATE subscriptions SET workspace_id = ? WHERE stripe_subscription_id = ?",
      team.id,
      teamSubscription,
    );
    const link = (slug: string, workspace: string) =>
      api(`/api/links?workspace=${workspace}`, {
        method: "POST",
        json: { targetUrl: `https://example.com/${slug}`, title: slug, description: "d", customLinkSlug: slug },
      });
    expect((await link("launch", "doomed")).status).toBe(201);
    expect((await link("kept", owner.userSlug)).status).toBe(201);
    await sql.run(
      `INSERT INTO webhook_endpoints (workspace_id, user_id, url, events, secret) VALUES (?, ?, 'https://127.0.0.1:9/hooks', '["link.created"]', 'whsec_AAAA')`,
      team.id,
      owner.id,
    );

    // The process dies while answering.
    await crashing.crash(api(`/api/workspaces/${team.id}?confirmSlug=doomed`, { method: "DELETE" }));

    await crashing.restart();
    expect(await sql.all("SELECT id FROM workspaces WHERE id = ?", team.id)).toEqual([]);
    for (const table of ["links", "webhook_endpoints", "subscriptions", "api_tokens"])
      expect({ table, rows: await sql.all(`SELECT id FROM ${table} WHERE workspace_id = ?`, team.id) }).toEqual({
        table,
        rows: [],
      });
    expect(stripe.subscriptions.get(teamSubscription)!.status).toBe("canceled");
    const go = (path: string) => fetch(`${crashing.node.url}/go/${path}`, { redirect: "manual", headers: PERSON });
    expect((await go("doomed/launch")).status).toBe(410);
    expect((await go(`${owner.userSlug}/kept`)).status).toBe(302);
    expect((await api("/api/workspaces")).status).toBe(200);
  });
});
