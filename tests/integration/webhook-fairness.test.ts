// Webhooks stay fair between endpoints (and so between accounts) on either engine: an endpoint that never answers
// holds up only its own deliveries, what waits for one endpoint is bounded, a paused endpoint's events wait and are
// sent when it resumes, and test events and resends are rate-limited. Real receivers verify every delivery with the
// reference `standardwebhooks` library (tests/helpers/webhook-receiver.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { TestClock } from "../helpers/clock.ts";
import { apiClient, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";

const MAX_PENDING = 3;
const clock = new TestClock();
let server: TestServer;
const receivers: Receiver[] = [];
/** Releases every answer a hanging receiver still holds (so the server can stop). */
const hung = Promise.withResolvers<number>();

beforeAll(async () => {
  // Receivers verify timestamps against real time; the rate limit counts per minute, so start just after one began.
  clock.advance(Date.now() - clock.now());
  clock.advance(61_000 - (clock.now() % 60_000));
  // An attempt may take 30 s: far longer than any wait below, so nothing here waits for one to time out.
  server = await startTestServer(
    {
      FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
      WEBHOOK_POLL_MS: "20",
      WEBHOOK_TIMEOUT_MS: "30000",
      WEBHOOK_MAX_PENDING: String(MAX_PENDING),
    },
    clock,
  );
});
afterAll(async () => {
  hung.resolve(200);
  await server.close();
  for (const receiver of receivers) await receiver.close();
});

/** A new user with an endpoint at a new receiver, subscribed to link.created. */
async function subscribed(): Promise<{ client: ApiClient; receiver: Receiver; endpointId: number }> {
  const client = await apiClient(server, null);
  const receiver = startReceiver();
  receivers.push(receiver);
  const response = await client.call("/api/webhooks", {
    method: "POST",
    json: { url: receiver.url, events: ["link.created"] },
  });
  expect(response.status).toBe(201);
  const endpoint = await response.json();
  receiver.secret = endpoint.secret;
  return { client, receiver, endpointId: endpoint.id };
}

const sendTest = (client: ApiClient, endpointId: number) =>
  client.call(`/api/webhooks/${endpointId}/test`, { method: "POST" });
type Delivery = { status: string; attempt: number; response: string | null };
const deliveries = async (client: ApiClient, endpointId: number) =>
  (await (await client.call(`/api/webhooks/${endpointId}/deliveries`)).json()) as Delivery[];

describe("an endpoint that never answers", () => {
  test("holds up no other account's events: they arrive while its attempts still hang", async () => {
    const stuck = await subscribed();
    stuck.receiver.answer = () => hung.promise;
    for (let i = 0; i < 8; i++) expect((await sendTest(stuck.client, stuck.endpointId)).status).toBe(202);
    await eventually(() => expect(stuck.receiver.received.length).toBeGreaterThan(0), {
      what: "the hanging endpoint's first attempt",
    });

    const other = await subscribed();
    const link = await (
      await other.client.call("/api/links", {
        method: "POST",
        json: { title: "Hello", description: "A link", targetUrl: "https://example.com/" },
      })
    ).json();
    await eventually(() => expect(other.receiver.acknowledged()).toHaveLength(1), {
      what: "the other account's link.created",
    });
    expect(other.receiver.acknowledged()[0]!.payload).toMatchObject({ type: "link.created", data: { id: link.id } });
    // It did not wait for the hanging attempts: none of them has an answer or a recorded outcome yet.
    expect(stuck.receiver.received.every((r) => r.status === 0)).toBe(true);
    expect((await deliveries(stuck.client, stuck.endpointId)).every((d) => d.attempt === 0)).toBe(true);
  });
});

describe("a paused endpoint", () => {
  test("keeps its events waiting (at most WEBHOOK_MAX_PENDING, newer ones marked failed) and sends them when resumed", async () => {
    const { client, receiver, endpointId } = await subscribed();
    const paused = await client.call(`/api/webhooks/${endpointId}`, { method: "PATCH", json: { paused: true } });
    expect(await paused.json()).toMatchObject({ paused: true, enabled: true });
    for (let i = 0; i < MAX_PENDING + 2; i++) expect((await sendTest(client, endpointId)).status).toBe(202);
    const listed = await eventually(
      async () => {
        const list = await deliveries(client, endpointId);
        expect(list.filter((d) => d.status === "failed")).toHaveLength(2);
        return list;
      },
      { what: "the deliveries past the bound marked failed" },
    );
    expect(listed.filter((d) => d.status === "pending")).toHaveLength(MAX_PENDING);
    expect(listed.find((d) => d.status === "failed")!.response).toBe(
      `Not sent: ${MAX_PENDING} deliveries were already waiting for this endpoint. Resend it once they are done.`,
    );
    expect(receiver.received).toHaveLength(0);

    const resumed = await client.call(`/api/webhooks/${endpointId}`, { method: "PATCH", json: { paused: false } });
    expect(await resumed.json()).toMatchObject({ paused: false });
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(MAX_PENDING), {
      what: "the waiting deliveries",
    });
    expect(new Set(receiver.acknowledged().map((r) => r.id)).size).toBe(MAX_PENDING);
  });
});

describe("the API", () => {
  test("test events and resends past 20 a minute are a 429 with Retry-After", async () => {
    const { client, endpointId } = await subscribed();
    for (let i = 0; i < 19; i++) expect((await sendTest(client, endpointId)).status).toBe(202);
    const [delivery] = (await deliveries(client, endpointId)) as Array<Delivery & { id: number }>;
    expect(
      (await client.call(`/api/webhooks/${endpointId}/deliveries/${delivery!.id}/resend`, { method: "POST" })).status,
    ).toBe(202);
    for (const refused of [
      await sendTest(client, endpointId),
      await client.call(`/api/webhooks/${endpointId}/deliveries/${delivery!.id}/resend`, { method: "POST" }),
    ]) {
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeWithin(1, 61);
      expect((await refused.json()).message).toStartWith("At most 20 test events and resends a minute.");
    }
    // Another account is not limited by this one.
    const other = await subscribed();
    expect((await sendTest(other.client, other.endpointId)).status).toBe(202);
  });

  test("PATCH with an empty body answers the endpoint unchanged", async () => {
    const { client, receiver, endpointId } = await subscribed();
    const response = await client.call(`/api/webhooks/${endpointId}`, { method: "PATCH", json: {} });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: endpointId,
      url: receiver.url,
      events: ["link.created"],
      enabled: true,
      paused: false,
    });
  });
});
