// Webhooks survive crashes and share work between nodes: the outbox row is committed with the change, a server
// killed (kill -9) while a delivery is in flight sends it again after the restart with the same webhook-id, one
// killed in the middle of a link.clicked window sends that window's stored counts after the restart, and on
// PostgreSQL two nodes claiming from one outbox deliver every event once. Receivers verify with `standardwebhooks`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { eventually } from "../helpers/eventually.ts";
import { apiCall, startNode, stopNode, type Node } from "../helpers/nodes.ts";
import { newTestDatabase } from "../helpers/postgres-test-cluster.ts";
import { seedApiToken, seedUser, testEngine } from "../helpers/server.ts";
import { postgresTestDb, sqliteTestDb, type TestDb } from "../helpers/test-db.ts";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";

const METRICS_TOKEN = "webhook-crash-metrics-token";
const WEBHOOK_ENV = {
  FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
  WEBHOOK_POLL_MS: "50",
  WEBHOOK_TIMEOUT_MS: "1000",
  WEBHOOK_RETRY_BASE_MS: "200",
  METRICS_TOKEN,
};
const card = { title: "Crash proof", description: "Sent once", targetUrl: "https://example.com/" };

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

/** A user with a token and an endpoint at a new receiver for `events`. */
async function subscriber(node: Node, sql: TestDb, events = ["link.created"]) {
  const user = await seedUser(sql);
  const { token } = await seedApiToken(sql, user.id);
  const receiver = startReceiver();
  receivers.push(receiver);
  const response = await apiCall(node.url, token, "/api/webhooks", {
    method: "POST",
    json: { url: receiver.url, events },
  });
  expect(response.status).toBe(201);
  receiver.secret = (await response.json()).secret;
  return { token, receiver, userSlug: user.userSlug };
}

/** A node of its own (on a fresh database) for a describe block, killed after it; restarts replace `at.node`. */
function oneNode(extra: Record<string, string> = {}) {
  const at = {} as { node: Node; sql: TestDb; env: Record<string, string> };
  beforeAll(async () => {
    at.env = {
      ...WEBHOOK_ENV,
      ...extra,
      ...(testEngine === "postgres" ? { DATABASE_URL: await newTestDatabase() } : {}),
    };
    at.node = await startNode(at.env);
    at.sql =
      testEngine === "postgres"
        ? postgresTestDb(at.env.DATABASE_URL!)
        : sqliteTestDb(join(at.node.dataDir, "linkprev.db"));
  });
  afterAll(async () => {
    await at.sql.close();
    await stopNode(at.node, { signal: "SIGKILL" });
  });
  return at;
}

describe("kill -9 mid-delivery", () => {
  const at = oneNode();

  test("the event is sent again after the restart with the same webhook-id, and acknowledged exactly once", async () => {
    const { token, receiver } = await subscriber(at.node, at.sql);
    // The first attempt never gets an answer: the server dies while waiting for it.
    const hung = Promise.withResolvers<number>();
    receiver.answer = (n) => (n === 0 ? hung.promise : 200);
    expect((await apiCall(at.node.url, token, "/api/links", { method: "POST", json: card })).status).toBe(201);
    await eventually(() => expect(receiver.received).toHaveLength(1));
    await stopNode(at.node, { signal: "SIGKILL", keepData: true });

    at.node = await startNode(at.env, at.node.dataDir);
    // The claim of the killed process lapses (the attempt's timeout and a little more), then it is sent again.
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(1), { timeoutMs: 15_000 });
    hung.resolve(200);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(receiver.acknowledged()[0]!.payload).toMatchObject({ type: "link.created", data: { title: "Crash proof" } });
    await eventually(async () =>
      expect(await at.sql.get("SELECT status, attempts FROM webhook_deliveries")).toEqual({
        status: "delivered",
        attempts: 1,
      }),
    );
    // Counted in the delivery worker, shown by the request thread's /metrics.
    await eventually(async () => {
      const metrics = await (
        await fetch(`${at.node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      expect(metrics).toContain('linkprev_webhook_deliveries_total{outcome="delivered"} 1');
      expect(metrics).toContain("linkprev_webhook_queue_depth 0");
    });
  });
});

describe("kill -9 in the middle of a link.clicked window", () => {
  // A window far longer than the test: only the restart closes it.
  const at = oneNode({ WEBHOOK_CLICK_WINDOW_MS: "600000", VIEW_FLUSH_MS: "20" });

  test("the counts of the stored views survive: after the restart one event has them all", async () => {
    const { token, receiver, userSlug } = await subscriber(at.node, at.sql, ["link.clicked"]);
    const link = await (await apiCall(at.node.url, token, "/api/links", { method: "POST", json: card })).json();
    // The writer learns who subscribes when a window opens: restart so that this window counts the subscriber's links.
    await stopNode(at.node, { signal: "SIGKILL", keepData: true });
    at.node = await startNode(at.env, at.node.dataDir);
    const visit = (agent: string, query = "") =>
      fetch(`${at.node.url}/go/${userSlug}/${link.linkSlug}${query}`, {
        headers: { "user-agent": agent },
        redirect: "manual",
      }).then((r) => r.body?.cancel());
    const person = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
    await Promise.all([
      visit(person),
      visit(person),
      visit(person, "?qr=1"),
      visit("Twitterbot/1.0"),
      visit("Twitterbot/1.0"),
    ]);
    // Stored (acknowledged by the writer's commit), and no event yet: the window is open.
    await eventually(async () =>
      expect(
        Number((await at.sql.get<{ n: number }>("SELECT count(*) AS n FROM views WHERE link_id = ?", link.id))!.n),
      ).toBe(5),
    );
    expect(receiver.received).toHaveLength(0);
    await stopNode(at.node, { signal: "SIGKILL", keepData: true });

    at.node = await startNode(at.env, at.node.dataDir);
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(1), { timeoutMs: 15_000 });
    const event = receiver.acknowledged()[0]!.payload!;
    expect(event).toMatchObject({
      type: "link.clicked",
      data: { id: link.id, linkSlug: link.linkSlug, people: 3, qrScans: 1, crawlers: { x: 2 } },
    });
  });
});

describe.if(testEngine === "postgres")("two nodes on PostgreSQL", () => {
  let nodes: Node[];
  let sql: TestDb;

  beforeAll(async () => {
    const env = { ...WEBHOOK_ENV, DATABASE_URL: await newTestDatabase() };
    nodes = [await startNode(env), await startNode(env)];
    sql = postgresTestDb(env.DATABASE_URL);
  });
  afterAll(async () => {
    await sql.close();
    for (const node of nodes) await stopNode(node);
  });

  test("each event is delivered once, whichever node claims it", async () => {
    const { token, receiver } = await subscriber(nodes[0]!, sql);
    // A slow receiver: both nodes poll while attempts are in flight.
    receiver.answer = async () => {
      await Bun.sleep(20);
      return 200;
    };
    const EVENTS = 30;
    await Promise.all(
      Array.from({ length: EVENTS }, (_, i) =>
        apiCall(nodes[i % 2]!.url, token, "/api/links", { method: "POST", json: { ...card, title: `Link ${i}` } }),
      ),
    );
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(EVENTS), { timeoutMs: 15_000 });
    expect(receiver.received).toHaveLength(EVENTS);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(EVENTS);
    expect(new Set(receiver.received.map((r) => r.payload!.data.title)).size).toBe(EVENTS);
  });
});
