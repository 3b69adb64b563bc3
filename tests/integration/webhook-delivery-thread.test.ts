// Webhook deliveries do not run on the request thread (the one that answers /go): with that thread stuck, a due
// delivery still reaches its receiver. The server runs in this process, so this test's thread is its request
// thread; the receiver runs in a child process, so that it answers while this thread is stuck.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { apiClient, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let receiver: ReturnType<typeof Bun.spawn>;
let receiverUrl: string;
/** When the receiver was posted to (its own clock, ms), as it prints them. */
const hits: number[] = [];

beforeAll(async () => {
  server = await startTestServer({ FETCH_ALLOW_PRIVATE: "127.0.0.1/32", WEBHOOK_POLL_MS: "20" });
  const script = `const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: async (r) => { await r.text(); console.log("HIT " + Date.now()); return new Response("ok"); } }); console.log("PORT " + s.port);`;
  receiver = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe" });
  const lines = (async function* () {
    let buffered = "";
    for await (const chunk of receiver.stdout as ReadableStream<Uint8Array>) {
      buffered += new TextDecoder().decode(chunk);
      const parts = buffered.split("\n");
      buffered = parts.pop()!;
      yield* parts;
    }
  })();
  const first = (await lines.next()).value as string;
  receiverUrl = `http://127.0.0.1:${first.slice("PORT ".length)}/hooks`;
  void (async () => {
    for await (const line of lines) if (line.startsWith("HIT ")) hits.push(Number(line.slice(4)));
  })();
});
afterAll(async () => {
  receiver.kill();
  await server.close();
});

/** Holds this thread (and so the server's request thread) for `ms`, without yielding to its event loop. */
const stick = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

test("a delivery due while the request thread is stuck reaches its receiver before the thread is free again", async () => {
  const client = await apiClient(server, null);
  const created = await client.call("/api/webhooks", {
    method: "POST",
    json: { url: receiverUrl, events: ["link.created"] },
  });
  expect(created.status).toBe(201);
  const endpoint = await created.json();
  // Due half a second from now: after this thread is stuck, whatever the thread did before.
  const due = Date.now() + 500;
  const body = JSON.stringify({
    type: "webhook.test",
    timestamp: new Date(due).toISOString(),
    data: { endpointId: endpoint.id, message: "stuck" },
  });
  await server.sql.run(
    "INSERT INTO webhook_deliveries (endpoint_id, user_id, workspace_id, event_id, type, payload, status, attempts, next_attempt_at, created_at) VALUES (?, ?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?, ?, 'pending', 0, ?, ?)",
    endpoint.id,
    client.userId,
    client.userId,
    "msg_stuck",
    "webhook.test",
    body,
    due,
    due,
  );
  expect(Date.now()).toBeLessThan(due);
  stick(3000);
  const freed = Date.now();
  // The receiver's line may reach this process only now; its time is when it was posted to.
  await eventually(() => expect(hits).toHaveLength(1));
  expect(hits[0]!).toBeLessThan(freed);
});
