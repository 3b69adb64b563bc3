// preview.fetched over real HTTP, on SQLite and PostgreSQL (docs/decisions/0066): a subscribed receiver hears of
// each platform's first fetch of each version of a link ("your link was just shared on Slack"), once, with the
// fetch's verification; a second fetch, a person and curl announce nothing.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { WEBHOOK_EVENT_DATA } from "../../src/webhooks/wire.ts";
import { eventually } from "../helpers/eventually.ts";
import { apiClient, crawlerAgents, seedLink, startTestServer, type TestServer } from "../helpers/server.ts";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";

let server: TestServer;
let receiver: Receiver;
beforeAll(async () => {
  server = await startTestServer({
    FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
    WEBHOOK_POLL_MS: "20",
    TRUST_PROXY: "true",
    PUBLIC_URL: "https://lp.example",
  });
  receiver = startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await server.close();
});

test("each platform's first fetch of each version is announced once, with its verification", async () => {
  const owner = await apiClient(server, null, "sharer");
  const created = await owner.call("/api/webhooks", {
    method: "POST",
    json: { url: receiver.url, events: ["preview.fetched"], description: "shares" },
  });
  expect(created.status).toBe(201);
  receiver.secret = ((await created.json()) as { secret: string }).secret;
  const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "launch" });
  const go = async (path: string, ua: string, from: string) => {
    const response = await fetch(`${server.url}/go/sharer/${path}`, {
      redirect: "manual",
      headers: { "user-agent": ua, "x-forwarded-for": from },
    });
    await response.arrayBuffer();
    return response.status;
  };
  const twitterbot = crawlerAgents.crawlers.x![0]!;
  expect(await go("launch", twitterbot, "199.16.156.1")).toBe(200);
  expect(await go("launch", twitterbot, "199.16.156.2")).toBe(200);
  expect(await go("launch", crawlerAgents.crawlers.slack![0]!, "3.5.140.2")).toBe(200);
  expect(await go("launch", crawlerAgents.people["chrome-windows"]!, "81.2.69.142")).toBe(302);
  expect(await go("launch", "curl/8.5.0", "81.2.69.142")).toBe(302);
  await server.flushViews();
  // A new version: X fetches its address afresh (a forged Twitterbot this time).
  expect((await owner.call(`/api/links/${linkId}/versions`, { method: "POST" })).status).toBe(201);
  expect(await go("launch/2", twitterbot, "81.2.69.142")).toBe(200);
  expect(await go("launch/2", twitterbot, "81.2.69.142")).toBe(200);
  await server.flushViews();

  const expected = [
    { platform: "x", version: 1, verification: "verified" },
    { platform: "slack", version: 1, verification: "unverifiable" },
    { platform: "x", version: 2, verification: "unverified" },
  ];
  const heard = await eventually(
    () => {
      const events = receiver.acknowledged().map((r) => r.payload!);
      expect(events).toHaveLength(expected.length);
      return events;
    },
    { what: "three preview.fetched deliveries" },
  );
  for (const event of heard) {
    expect(event.type).toBe("preview.fetched");
    WEBHOOK_EVENT_DATA["preview.fetched"].parse(event.data);
    expect(event.data).toMatchObject({ id: linkId, linkSlug: "launch" });
  }
  const told = heard.map(({ data }) => ({
    platform: data.platform,
    version: data.version,
    verification: data.verification,
  }));
  expect(told.sort((a, b) => `${a.version}${a.platform}`.localeCompare(`${b.version}${b.platform}`))).toEqual(
    expected.sort((a, b) => `${a.version}${a.platform}`.localeCompare(`${b.version}${b.platform}`)),
  );
  // Nothing more comes for the repeated fetches.
  await server.flushViews();
  expect(receiver.received.filter((r) => r.payload?.type === "preview.fetched")).toHaveLength(expected.length);
});
