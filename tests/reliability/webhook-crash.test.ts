// Webhooks survive crashes and share work between nodes: the outbox row is committed with the change, a server
// killed (kill -9) while a delivery is in flight sends it again after the restart with the same webhook-id, and on
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
const WEBHOOK_ENV = { FETCH_ALLOW_PRIVATE: "127.0.0.1/32", WEBHOOK_POLL_MS: "50", WEBHOOK_TIMEOUT_MS: "1000", WEBHOOK_RETRY_BASE_MS: "200", METRICS_TOKEN };
const card = { title: "Crash proof", description: "Sent once", targetUrl: "https://example.com/" };

const receivers: Receiver[] = [];
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
});

/** A user with a token and an endpoint at a new receiver for link.created. */
async function subscriber(node: Node, sql: TestDb) {
  const user = await seedUser(sql);
  const { token } = await seedApiToken(sql, user.id);
  const receiver = startReceiver();
  receivers.push(receiver);
  const response = await apiCall(node.url, token, "/api/webhooks", { method: "POST", json: { url: receiver.url, events: ["link.created"] } });
  expect(response.status).toBe(201);
  receiver.secret = (await response.json()).secret;
  return { token, receiver };
}

describe("kill -9 mid-delivery", () => {
  let node: Node;
  let sql: TestDb;
  let env: Record<string, string>;

  beforeAll(async () => {
    env = { ...WEBHOOK_ENV, ...(testEngine === "postgres" ? { DATABASE_URL: await newTestDatabase() } : {}) };
    node = await startNode(env);
    sql = testEngine === "postgres" ? postgresTestDb(env.DATABASE_URL!) : sqliteTestDb(join(node.dataDir, "linkprev.db"));
  });
  afterAll(async () => {
    await sql.close();
    await stopNode(node, { signal: "SIGKILL" });
  });

  test("the event is sent again after the restart with the same webhook-id, and acknowledged exactly once", async () => {
    const { token, receiver } = await subscriber(node, sql);
    // The first attempt never gets an answer: the server dies while waiting for it.
    const hung = Promise.withResolvers<number>();
    receiver.answer = (n) => (n === 0 ? hung.promise : 200);
    expect((await apiCall(node.url, token, "/api/links", { method: "POST", json: card })).status).toBe(201);
    await eventually(() => expect(receiver.received).toHaveLength(1));
    await stopNode(node, { signal: "SIGKILL", keepData: true });

    node = await startNode(env, node.dataDir);
    // The claim of the killed process lapses (the attempt's timeout and a little more), then it is sent again.
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(1), { timeoutMs: 15_000 });
    hung.resolve(200);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    expect(receiver.acknowledged()[0]!.payload).toMatchObject({ type: "link.created", data: { title: "Crash proof" } });
    await eventually(async () => expect(await sql.get("SELECT status, attempts FROM webhook_deliveries")).toEqual({ status: "delivered", attempts: 1 }));
    // Counted in the delivery worker, shown by the request thread's /metrics.
    await eventually(async () => {
      const metrics = await (await fetch(`${node.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      expect(metrics).toContain('linkprev_webhook_deliveries_total{outcome="delivered"} 1');
      expect(metrics).toContain("linkprev_webhook_queue_depth 0");
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
    await Promise.all(Array.from({ length: EVENTS }, (_, i) => apiCall(nodes[i % 2]!.url, token, "/api/links", { method: "POST", json: { ...card, title: `Link ${i}` } })));
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(EVENTS), { timeoutMs: 15_000 });
    expect(receiver.received).toHaveLength(EVENTS);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(EVENTS);
    expect(new Set(receiver.received.map((r) => r.payload!.data.title)).size).toBe(EVENTS);
  });
});
