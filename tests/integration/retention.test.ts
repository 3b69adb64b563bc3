// VIEW_RETENTION_DAYS: the view writer deletes expired raw views while idle; counts and rollups stay.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { insertRollup, insertView } from "../helpers/account.ts";
import { eventually, isTrue } from "../helpers/eventually.ts";
import { apiClient, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ VIEW_RETENTION_DAYS: "30", VIEW_RETENTION_EVERY_MS: "200" });
});
afterAll(() => server.close());

const DAY_MS = 86_400_000;

test("deletes raw views older than the period, keeps newer ones, the rollups and the counters", async () => {
  const client = await apiClient(server, null);
  const created = await client.call("/api/links", {
    method: "POST",
    json: { targetUrl: "https://example.com/kept", title: "Kept", description: "Counts stay" },
  });
  const link = (await created.json()) as { id: number };
  const agent = (await server.sql.get<{ id: number }>(
    "INSERT INTO user_agents (text) VALUES (?) RETURNING id",
    "Retention test agent",
  ))!;
  const old = [40, 31, 400].map((days) => Date.now() - days * DAY_MS);
  const recent = [29, 1, 0].map((days) => Date.now() - days * DAY_MS - 60_000);
  // Inserted out of time order: the deletion goes by time, not by id.
  for (const at of [recent[0]!, ...old, ...recent.slice(1)])
    await insertView(server.sql, { userId: client.userId, linkId: link.id, agentId: agent.id, at });
  await insertRollup(server.sql, link.id, new Date(old[2]!).toISOString().slice(0, 10), "", 5, 0);
  await insertRollup(server.sql, link.id, new Date(recent[1]!).toISOString().slice(0, 10), "", 2, 1);
  // On SQLite the rows a test inserts are beyond the rollup mark (not counted yet) until the mark passes them.
  if (server.sql.engine === "sqlite")
    await server.sql.run("UPDATE view_rollup_mark SET last_view_id = (SELECT max(id) FROM views)");

  const kept = () =>
    server.sql.all<{ timestamp: number }>("SELECT timestamp FROM views WHERE link_id = ? ORDER BY timestamp", link.id);
  await eventually(async () => isTrue((await kept()).length === recent.length, "the expired views gone"), {
    what: "the expired views to go",
  });
  expect((await kept()).map((row) => Number(row.timestamp))).toEqual([...recent].sort((a, b) => a - b));
  const rollups = await server.sql.get<{ human: number; bot: number }>(
    "SELECT sum(human) AS human, sum(bot) AS bot FROM view_rollups WHERE link_id = ?",
    link.id,
  );
  expect({ human: Number(rollups!.human), bot: Number(rollups!.bot) }).toEqual({ human: 7, bot: 1 });
  const [listed] = (await (await client.call("/api/links")).json()) as Array<{ viewsHuman: number; viewsBot: number }>;
  expect(listed).toMatchObject({ viewsHuman: 7, viewsBot: 1 });
});

test.if(process.env.LINKPREV_TEST_DB !== "postgres")(
  "on SQLite, an expired row the rollups do not count yet stays until they do",
  async () => {
    const client = await apiClient(server, null);
    const created = await client.call("/api/links", {
      method: "POST",
      json: { targetUrl: "https://example.com/late", title: "Late", description: "Beyond the mark" },
    });
    const link = (await created.json()) as { id: number };
    const stored = (id: number) => server.sql.get("SELECT id FROM views WHERE id = ?", id);
    const expiredView = async () => {
      await insertView(server.sql, {
        userId: client.userId,
        linkId: link.id,
        agentId: null,
        at: Date.now() - 100 * DAY_MS,
      });
      return (await server.sql.get<{ id: number }>("SELECT max(id) AS id FROM views"))!;
    };
    // Two expired rows; the mark is then moved past the first only. The cycle that deletes the first one has seen
    // the second and kept it: its going is the signal that a cycle ran, instead of a wait.
    const counted = await expiredView();
    const row = await expiredView();
    await server.sql.run("UPDATE view_rollup_mark SET last_view_id = ?", counted.id);
    await eventually(async () => isTrue((await stored(counted.id)) === null, "the counted row gone"), {
      what: "a retention cycle to delete the counted row",
    });
    expect(await stored(row.id)).not.toBeNull();
    await server.sql.run("UPDATE view_rollup_mark SET last_view_id = ?", row.id);
    await eventually(async () => isTrue((await stored(row.id)) === null, "the row gone"), {
      what: "the row to go once counted",
    });
  },
);

test("the privacy page states the period", async () => {
  const html = await (await fetch(`${server.url}/privacy`)).text();
  expect(html).toContain("These raw view records are kept for 30 days, then deleted.");
});
