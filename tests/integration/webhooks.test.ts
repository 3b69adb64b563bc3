// Webhooks end to end on either engine: a real receiving server checks every delivery with the reference
// `standardwebhooks` library; the server's clock is the test's, so retries and stale timestamps need no waiting.
// Custom domains are verified against a real DNS server on loopback (tests/helpers/dns-server.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { checkLinkHealth } from "../../src/rules/health.ts";
import { blockHost } from "../../src/safety/host-blocks.ts";
import { WEBHOOK_EVENT_DATA } from "../../src/webhooks/wire.ts";
import { runAdmin } from "../helpers/admin-cli.ts";
import { TestClock } from "../helpers/clock.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { eventually } from "../helpers/eventually.ts";
import { join } from "node:path";
import {
  apiClient,
  seedApiToken,
  seedUser,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.ts";

const clock = new TestClock();
const METRICS_TOKEN = "webhook-metrics-token-0123";
const CNAME_TARGET = "edge.hooks.example";
let server: TestServer;
let dns: TestDnsServer;
const receivers: Receiver[] = [];

beforeAll(async () => {
  // The receivers verify against real time: the clock starts at it, however long after loading this file runs.
  clock.advance(Date.now() - clock.now());
  dns = await startDnsServer();
  server = await startTestServer(
    {
      DNS_SERVERS: dns.address,
      DOMAIN_CNAME_TARGET: CNAME_TARGET,
      FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
      WEBHOOK_POLL_MS: "20",
      WEBHOOK_RETRY_BASE_MS: "1000",
      WEBHOOK_TIMEOUT_MS: "2000",
      WEBHOOK_CLICK_WINDOW_MS: "200",
      TRUST_PROXY: "true",
      METRICS_TOKEN: METRICS_TOKEN,
    },
    clock,
  );
});
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await server.close();
  dns.close();
});

/** A user with an endpoint at a fresh receiver, subscribed to `events`; the receiver knows the secret. */
async function subscribed(
  events: string[],
  on = server,
): Promise<{ client: ApiClient; receiver: Receiver; endpoint: { id: number; secret: string } }> {
  const client = await apiClient(on, null);
  const receiver = startReceiver();
  receivers.push(receiver);
  const response = await client.call("/api/webhooks", {
    method: "POST",
    json: { url: receiver.url, events, description: "test receiver" },
  });
  expect(response.status).toBe(201);
  const endpoint = await response.json();
  receiver.secret = endpoint.secret;
  return { client, receiver, endpoint };
}

const VISITOR_ADDRESS = "203.0.113.77";
const VISITOR_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 visitor-7f3a";
const TWITTERBOT = "Twitterbot/1.0";

/** One visit of a short URL, from VISITOR_ADDRESS (the server trusts X-Forwarded-For here). */
const visit = (shortUrl: string, userAgent: string, query = "") =>
  fetch(shortUrl + query, {
    headers: { "user-agent": userAgent, "x-forwarded-for": VISITOR_ADDRESS },
    redirect: "manual",
  }).then((r) => r.body?.cancel());

const card = { title: "Launch", description: "Our launch page", targetUrl: "https://example.com/launch" };

describe("endpoints", () => {
  test("a new endpoint's secret is shown once: in the 201 answer, never in the list", async () => {
    const { client, endpoint, receiver } = await subscribed(["link.created"]);
    expect(endpoint.secret).toStartWith("whsec_");
    const list = await (await client.call("/api/webhooks")).json();
    expect(list).toEqual([
      expect.objectContaining({
        id: endpoint.id,
        url: receiver.url,
        events: ["link.created"],
        description: "test receiver",
        enabled: true,
      }),
    ]);
    expect(JSON.stringify(list)).not.toContain(endpoint.secret);
  });

  test("a private address or a plain-http public URL is refused with a clear message", async () => {
    const client = await apiClient(server, null);
    const privateAddress = await client.call("/api/webhooks", {
      method: "POST",
      json: { url: "https://10.1.2.3/hooks", events: ["link.created"] },
    });
    expect(privateAddress.status).toBe(422);
    expect((await privateAddress.json()).message).toBe(
      "Refused: 10.1.2.3, a private address; only public addresses are fetched",
    );
    const plainHttp = await client.call("/api/webhooks", {
      method: "POST",
      json: { url: "http://93.184.215.14/hooks", events: ["link.created"] },
    });
    expect(plainHttp.status).toBe(422);
    expect((await plainHttp.json()).message).toBe(
      "Webhook URLs must use https (http is accepted only for addresses in FETCH_ALLOW_PRIVATE)",
    );
    expect(await (await client.call("/api/webhooks")).json()).toEqual([]);
  });
});

describe("events", () => {
  test("link.created, link.updated, link.deleted and webhook.test arrive signed, each payload as its schema says", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created", "link.updated", "link.deleted"]);
    const link = await (await client.call("/api/links", { method: "POST", json: card })).json();
    await eventually(() => expect(receiver.acknowledged().map((r) => r.payload!.type)).toEqual(["link.created"]));
    expect(
      (
        await client.call(`/api/links/by-slug/${link.linkSlug}`, {
          method: "PUT",
          json: { ...card, title: "Launch day" },
        })
      ).status,
    ).toBe(200);
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(2));
    expect((await client.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" })).status).toBe(202);
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(4));

    expect(receiver.received.every((r) => r.error === null)).toBe(true);
    const [created, updated, deleted, ping] = receiver.acknowledged().map((r) => r.payload!);
    const ref = { id: link.id, linkSlug: link.linkSlug, shortUrl: link.shortUrl };
    expect(created).toEqual({
      type: "link.created",
      timestamp: new Date(clock.now()).toISOString(),
      data: { ...ref, ...card },
    });
    expect(updated!.data).toEqual({ ...ref, ...card, title: "Launch day" });
    expect(deleted).toMatchObject({ type: "link.deleted", data: ref });
    expect(ping).toMatchObject({ type: "webhook.test", data: { endpointId: endpoint.id } });
    for (const body of [created, updated, deleted, ping])
      WEBHOOK_EVENT_DATA[body!.type as keyof typeof WEBHOOK_EVENT_DATA].parse(body!.data);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(4);
  });

  test("an endpoint gets only the types it subscribed to", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.deleted"]);
    const link = await (await client.call("/api/links", { method: "POST", json: card })).json();
    await client.call(`/api/links/${link.id}`, { method: "DELETE" });
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(1));
    await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" });
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(2));
    expect(receiver.received.map((r) => r.payload!.type)).toEqual(["link.deleted", "webhook.test"]);
  });
});

/** The verified payloads `receiver` acknowledged, once there are `count`. */
const payloads = (receiver: Receiver, count: number) =>
  eventually(() => {
    expect(receiver.acknowledged()).toHaveLength(count);
    return receiver.acknowledged().map((r) => r.payload!);
  });

/** The events recorded for an endpoint (delivered or not), newest first. */
const outbox = async (client: ApiClient, endpointId: number) =>
  (await (await client.call(`/api/webhooks/${endpointId}/deliveries`)).json()) as Array<{ type: string }>;

/** A custom domain of `client`'s, added and verified (its records published in the loopback DNS server). */
async function verifiedDomain(client: ApiClient, hostname: string) {
  const domain = await (await client.call("/api/domains", { method: "POST", json: { hostname } })).json();
  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(hostname, { cname: CNAME_TARGET });
  const checked = await (await client.call(`/api/domains/${domain.id}/verify`, { method: "POST" })).json();
  expect(checked.status).toBe("verified");
  return checked as { id: number; hostname: string; verification: { txtName: string } };
}

describe("state changes", () => {
  test("domain.verified when a domain's records are found, domain.failing when they are gone, verified again when back", async () => {
    const { client, receiver, endpoint } = await subscribed(["domain.verified", "domain.failing"]);
    const domain = await verifiedDomain(client, "links.hooks-acme.test");
    const recheck = async () =>
      (await (await client.call(`/api/domains/${domain.id}/verify`, { method: "POST" })).json()) as {
        status: string;
        reason: string;
      };
    // A check finding the same records changes nothing: no event.
    expect((await recheck()).status).toBe("verified");
    expect(await outbox(client, endpoint.id)).toHaveLength(1);
    const proof = dns.zone.get(domain.verification.txtName)!;
    dns.zone.delete(domain.verification.txtName);
    const failing = await recheck();
    expect(failing.status).toBe("failing");
    dns.zone.set(domain.verification.txtName, proof);
    expect((await recheck()).status).toBe("verified");
    const [verified, failed, back] = await payloads(receiver, 3);
    expect(verified).toMatchObject({ type: "domain.verified", data: { domain: "links.hooks-acme.test" } });
    expect(failed).toMatchObject({
      type: "domain.failing",
      data: { domain: "links.hooks-acme.test", reason: failing.reason },
    });
    expect(failing.reason).toContain("_linkprev.links.hooks-acme.test");
    expect(back).toMatchObject({ type: "domain.verified", data: { domain: "links.hooks-acme.test" } });
    for (const body of [verified, failed, back])
      WEBHOOK_EVENT_DATA[body!.type as keyof typeof WEBHOOK_EVENT_DATA].parse(body!.data);
  });

  test("a link on a custom domain: link.created and link.disabled (an operator's) give its address on that domain", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created", "link.disabled"]);
    await verifiedDomain(client, "go.hooks-brand.test");
    const link = await (
      await client.call("/api/links", {
        method: "POST",
        json: { ...card, customLinkSlug: "spring", domain: "go.hooks-brand.test" },
      })
    ).json();
    expect(link.shortUrl).toBe(`${new URL(server.url).protocol}//go.hooks-brand.test/spring`);
    runAdmin(
      server,
      "links",
      "disable",
      `${client.userSlug}/spring`,
      "--reason",
      "phishing kit reported by CERT",
      "--by",
      "ops@example",
    );
    expect((await outbox(client, endpoint.id)).map((delivery) => delivery.type)).toEqual([
      "link.disabled",
      "link.created",
    ]);
    // The command's event is due at its own (real) time; the server's clock is this file's.
    clock.advance(Math.max(0, Date.now() - clock.now()));
    const [created, disabled] = await payloads(receiver, 2);
    const ref = { id: link.id, linkSlug: "spring", shortUrl: link.shortUrl };
    expect(created).toMatchObject({ type: "link.created", data: ref });
    expect(disabled).toMatchObject({
      type: "link.disabled",
      data: { ...ref, reason: "Operator: phishing kit reported by CERT" },
    });
  });

  test("link.disabled once per link a host block disables, with the reason the owner sees; never for a link already disabled", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.disabled"]);
    const first = await (
      await client.call("/api/links", {
        method: "POST",
        json: { ...card, targetUrl: "https://cdn.hooks-bad.example/a" },
      })
    ).json();
    const second = await (
      await client.call("/api/links", { method: "POST", json: { ...card, targetUrl: "https://hooks-bad.example/b" } })
    ).json();
    expect(await blockHost(server.ctx.safety, "hooks-bad.example", "ops", "hosts phishing kits")).toBe(2);
    const events = await payloads(receiver, 2);
    const reason = (await (await client.call(`/api/links/by-slug/${first.linkSlug}`)).json()).disabledReason;
    expect(reason).toBe("Listed by this instance's operator");
    expect(events.map((body) => body.data).sort((a, b) => Number(a.id) - Number(b.id))).toEqual(
      [first, second].map((link) => ({ id: link.id, linkSlug: link.linkSlug, shortUrl: link.shortUrl, reason })),
    );
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(2);
    for (const body of events) WEBHOOK_EVENT_DATA["link.disabled"].parse(body.data);
    // Blocking a host under it finds one of them, disabled already: nothing new.
    await blockHost(server.ctx.safety, "cdn.hooks-bad.example", "ops", "again");
    expect(await outbox(client, endpoint.id)).toHaveLength(2);
  });
});

describe("link.broken", () => {
  // A server of its own: the health pass checks every live link, and this file's other links point at the internet.
  let healthServer: TestServer;
  let target: ReturnType<typeof Bun.serve>;
  beforeAll(async () => {
    target = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => new Response("gone", { status: new URL(request.url).pathname === "/ok" ? 200 : 404 }),
    });
    healthServer = await startTestServer(
      { FETCH_ALLOW_PRIVATE: "127.0.0.1/32", WEBHOOK_POLL_MS: "20", LINK_HEALTH_EVERY_MS: "0" },
      clock,
    );
  });
  afterAll(async () => {
    await healthServer.close();
    target.stop(true);
  });

  test("a target answering 404 twice in a row: link.broken once, with the target and HTTP 404", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.broken"], healthServer);
    const targetUrl = `http://127.0.0.1:${target.port}/gone`;
    const link = await (await client.call("/api/links", { method: "POST", json: { ...card, targetUrl } })).json();
    const { database, fetcher, publicUrl } = healthServer.ctx.links;
    const pass = () => checkLinkHealth({ database, fetcher: fetcher!, clock, publicUrl, hostGapMs: 0 });
    expect((await pass()).becameBroken).toEqual([]);
    expect((await pass()).becameBroken).toEqual([link.id]);
    const [broken] = await payloads(receiver, 1);
    expect(broken).toEqual({
      type: "link.broken",
      timestamp: expect.any(String),
      data: {
        id: link.id,
        linkSlug: link.linkSlug,
        shortUrl: link.shortUrl,
        targetUrl,
        failedUrl: targetUrl,
        reason: "HTTP 404",
      },
    });
    WEBHOOK_EVENT_DATA["link.broken"].parse(broken!.data);
    // Still broken on the next pass: no second event.
    await pass();
    expect(await outbox(client, endpoint.id)).toHaveLength(1);
  });

  test("a rule's target answering 404: link.broken names that target, and the link's health shows it", async () => {
    const { client, receiver } = await subscribed(["link.broken"], healthServer);
    const targetUrl = `http://127.0.0.1:${target.port}/ok`;
    const ruleTarget = `http://127.0.0.1:${target.port}/app-gone`;
    const created = await client.call("/api/links", {
      method: "POST",
      json: { ...card, targetUrl, rules: [{ when: { country: "DE" }, targetUrl: ruleTarget }] },
    });
    const link = await created.json();
    const { database, fetcher, publicUrl } = healthServer.ctx.links;
    for (let i = 0; i < 2; i++) await checkLinkHealth({ database, fetcher: fetcher!, clock, publicUrl, hostGapMs: 0 });
    const [broken] = await payloads(receiver, 1);
    expect(broken!.data).toEqual({
      id: link.id,
      linkSlug: link.linkSlug,
      shortUrl: link.shortUrl,
      targetUrl,
      failedUrl: ruleTarget,
      reason: "HTTP 404",
    });
    WEBHOOK_EVENT_DATA["link.broken"].parse(broken!.data);
    const shown = await (await client.call(`/api/links/by-slug/${link.linkSlug}`)).json();
    expect(shown.health).toMatchObject({ status: "broken", httpStatus: 404, failedUrl: ruleTarget });
  });
});

describe("delivery", () => {
  test("a receiver answering 500 three times then 200 gets the event 4 times with one id, after growing delays", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created"]);
    receiver.answer = (n) => (n < 3 ? 500 : 200);
    await client.call("/api/links", { method: "POST", json: card });
    const delays: number[] = [];
    for (let failures = 1; failures <= 3; failures++) {
      await eventually(() => expect(receiver.received).toHaveLength(failures));
      const [delivery] = await eventually(async () => {
        const list = await (await client.call(`/api/webhooks/${endpoint.id}/deliveries`)).json();
        expect(list[0].attempt).toBe(failures);
        return list;
      });
      expect(delivery).toMatchObject({ status: "pending", statusCode: 500, response: "not now" });
      const wait = Date.parse(delivery.nextAttemptAt) - clock.now();
      delays.push(wait);
      clock.advance(wait);
    }
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(1));
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
    expect(receiver.received.every((r) => r.error === null)).toBe(true);
    // About 1 s, 12 s and 120 s (WEBHOOK_RETRY_BASE_MS=1000), each up to a fifth later.
    expect(delays[0]).toBeWithin(1000, 1201);
    expect(delays[1]).toBeWithin(12_000, 14_401);
    expect(delays[2]).toBeWithin(120_000, 144_001);
    const [done] = await eventually(async () => {
      const list = await (await client.call(`/api/webhooks/${endpoint.id}/deliveries`)).json();
      expect(list[0].status).toBe("delivered");
      return list;
    });
    expect(done).toMatchObject({ attempt: 4, statusCode: 200, response: "ok", nextAttemptAt: null });
  });

  test("an endpoint failing for 3 days is disabled with the reason shown, and its owner re-enables it", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created"]);
    let failing = true;
    receiver.answer = () => (failing ? 500 : 200);
    await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" });
    // The failure recorded (the receiver hears of the attempt before its outcome is written, at the clock's time).
    await eventually(async () =>
      expect((await (await client.call(`/api/webhooks/${endpoint.id}/deliveries`)).json())[0].attempt).toBe(1),
    );
    clock.advance(3 * 86_400_000);
    try {
      await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" });
      await eventually(async () => {
        const [listed] = (await (await client.call("/api/webhooks")).json()).filter(
          (e: { id: number }) => e.id === endpoint.id,
        );
        expect(listed).toMatchObject({
          enabled: false,
          disabledReason: expect.stringMatching(
            /^Disabled on \d{4}-\d{2}-\d{2}: every delivery failed for 3 days \(last: HTTP 500\)$/,
          ),
        });
      });
      failing = false;
      const enabled = await (
        await client.call(`/api/webhooks/${endpoint.id}`, { method: "PATCH", json: { enabled: true } })
      ).json();
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
      // The deliveries held while it was disabled go out again when their retry is due.
      clock.advance(86_400_000);
      // (Answered, not verified: the server's clock is days ahead of the receiver's, too far for the verifier.)
      await eventually(() =>
        expect(new Set(receiver.received.filter((r) => r.status === 200).map((r) => r.id)).size).toBe(2),
      );
    } finally {
      clock.advance(-4 * 86_400_000);
    }
  });

  test("resend sends the same event again with the same webhook-id", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created"]);
    await client.call("/api/links", { method: "POST", json: card });
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(1));
    const [delivery] = await (await client.call(`/api/webhooks/${endpoint.id}/deliveries`)).json();
    expect(
      (await client.call(`/api/webhooks/${endpoint.id}/deliveries/${delivery.id}/resend`, { method: "POST" })).status,
    ).toBe(202);
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(2));
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
  });

  test("a resend asked for while the last attempt is still being answered is not lost", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created"]);
    const resend = async () => {
      const [delivery] = await (await client.call(`/api/webhooks/${endpoint.id}/deliveries`)).json();
      const response = await client.call(`/api/webhooks/${endpoint.id}/deliveries/${delivery.id}/resend`, {
        method: "POST",
      });
      expect(response.status).toBe(202);
    };
    // The first delivery is answered only once the resend is accepted: its result is recorded after that.
    receiver.answer = async (n) => (n === 0 && (await resend()), 200);
    await client.call("/api/links", { method: "POST", json: card });
    await eventually(() => expect(receiver.acknowledged()).toHaveLength(2));
    expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
  });

  test("a delivery whose timestamp is more than 5 minutes old is rejected by the reference verifier", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created"]);
    // The server's clock runs 6 minutes behind the receiver's: its signed timestamp is stale on arrival.
    const behind = Date.now() - 6 * 60_000 - clock.now();
    clock.advance(behind);
    try {
      // A poll begun before the clock moved would sign with the earlier time: wait for one that starts after it.
      await server.nextWebhookPoll();
      await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" });
      await eventually(() => expect(receiver.received).toHaveLength(1));
    } finally {
      clock.advance(-behind);
    }
    expect(receiver.received[0]!.error).toBe("Message timestamp too old");
    // Re-stamped with the time now, the signature no longer matches: the timestamp is part of what is signed.
    const replay = {
      ...receiver.received[0]!,
      headers: { ...receiver.received[0]!.headers, "webhook-timestamp": String(Math.floor(Date.now() / 1000)) },
    };
    expect(() => receiver.verifyWith(endpoint.secret, replay)).toThrow("No matching signature found");
  });

  test("after a rotation both secrets sign for 24 hours, then only the new one", async () => {
    const { client, receiver, endpoint } = await subscribed(["link.created"]);
    const rotated = await (await client.call(`/api/webhooks/${endpoint.id}/rotate-secret`, { method: "POST" })).json();
    expect(rotated.secret).not.toBe(endpoint.secret);
    await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" });
    await eventually(() => expect(receiver.received).toHaveLength(1));
    const both = receiver.received[0]!;
    expect(both.headers["webhook-signature"]!.split(" ")).toHaveLength(2);
    expect(receiver.verifyWith(endpoint.secret, both)).toMatchObject({ type: "webhook.test" });
    expect(receiver.verifyWith(rotated.secret, both)).toMatchObject({ type: "webhook.test" });

    clock.advance(86_400_000 + 1000);
    try {
      await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" });
      await eventually(() => expect(receiver.received).toHaveLength(2));
    } finally {
      clock.advance(-(86_400_000 + 1000));
    }
    const later = receiver.received[1]!;
    expect(later.headers["webhook-signature"]!.split(" ")).toHaveLength(1);
  });
});

describe("link.clicked", () => {
  test("one event per link per window, from the view writer, with counts only", async () => {
    const { client, receiver } = await subscribed(["link.clicked"]);
    // link.clicked is stamped by the view writer's own clock (real time): the server's must not lag behind it.
    if (clock.now() < Date.now() + 1000) clock.advance(Date.now() + 1000 - clock.now());
    const link = await (await client.call("/api/links", { method: "POST", json: card })).json();
    // The writer reads who subscribes at each window's start: the first event shows the endpoint is known.
    await eventually(async () => {
      await visit(link.shortUrl, VISITOR_AGENT);
      await server.flushViews();
      expect(receiver.acknowledged().length).toBeGreaterThan(0);
    });
    // Counted exactly on a second link, in as many visits as the test makes.
    const other = await (await client.call("/api/links", { method: "POST", json: { ...card, title: "Other" } })).json();
    await Promise.all([
      visit(other.shortUrl, VISITOR_AGENT),
      visit(other.shortUrl, VISITOR_AGENT, "?qr=1"),
      visit(other.shortUrl, TWITTERBOT),
      visit(other.shortUrl, TWITTERBOT),
    ]);
    await server.flushViews();
    const ofOther = () => receiver.acknowledged().filter((r) => r.payload!.data.id === other.id);
    await eventually(() => expect(ofOther()).toHaveLength(1));
    const event = ofOther()[0]!.payload!;
    expect(event.type).toBe("link.clicked");
    expect(event.data).toMatchObject({
      id: other.id,
      linkSlug: other.linkSlug,
      people: 2,
      qrScans: 1,
      crawlers: { x: 2 },
    });
    WEBHOOK_EVENT_DATA["link.clicked"].parse(event.data);
    // At most one event per link per window.
    const windowMs = Date.parse(event.data.to as string) - Date.parse(event.data.from as string);
    expect(windowMs).toBeGreaterThanOrEqual(150);
    const perWindow = receiver.acknowledged().map((r) => `${r.payload!.data.id} ${r.payload!.data.to}`);
    expect(new Set(perWindow).size).toBe(perWindow.length);
  });
});

test("/metrics counts attempts by outcome and shows the outbox's depth and oldest wait", async () => {
  const { client, receiver, endpoint } = await subscribed(["link.created"]);
  receiver.answer = () => 503;
  await client.call(`/api/webhooks/${endpoint.id}/test`, { method: "POST" });
  await eventually(() => expect(receiver.received).toHaveLength(1));
  clock.advance(30_000);
  const text = await eventually(async () => {
    const body = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(body).toMatch(/^linkprev_webhook_queue_depth [1-9]/m);
    return body;
  });
  expect(Number(/^linkprev_webhook_deliveries_total\{outcome="delivered"\} (\d+)/m.exec(text)?.[1])).toBeGreaterThan(5);
  expect(
    Number(/^linkprev_webhook_deliveries_total\{outcome="retrying"\} (\d+)/m.exec(text)?.[1]),
  ).toBeGreaterThanOrEqual(4);
  expect(Number(/^linkprev_webhook_oldest_pending_age_seconds (\S+)/m.exec(text)?.[1])).toBeGreaterThanOrEqual(30);
  // Not retried again in this file: its endpoint goes.
  await client.call(`/api/webhooks/${endpoint.id}`, { method: "DELETE" });
});

test("linkprev webhooks add, list, test, deliveries, resend and remove", async () => {
  const user = await seedUser(server.sql);
  const { token } = await seedApiToken(server.sql, user.id);
  const receiver = startReceiver();
  receivers.push(receiver);
  const linkprev = async (...args: string[]) => {
    const child = Bun.spawn([process.execPath, join(import.meta.dir, "../../cli/linkprev.ts"), "webhooks", ...args], {
      env: { ...process.env, LINKPREV_SERVER: server.url, LINKPREV_TOKEN: token, XDG_CONFIG_HOME: server.dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    return stdout;
  };
  const added = await linkprev(
    "add",
    receiver.url,
    "--events",
    "link.created,link.deleted",
    "--description",
    "from the CLI",
  );
  const id = /^Endpoint (\d+): /m.exec(added)![1]!;
  receiver.secret = /Secret \(shown once.*\): (whsec_\S+)/.exec(added)![1]!;
  expect(await linkprev("list")).toContain(`${receiver.url}  link.created,link.deleted`);
  expect(await linkprev("test", id)).toStartWith("Queued msg_");
  await eventually(() => expect(receiver.acknowledged()).toHaveLength(1));
  const deliveries = await eventually(async () => {
    const text = await linkprev("deliveries", id);
    expect(text).toMatch(/webhook\.test\s+delivered\s+1\s+200/);
    return text;
  });
  const deliveryId = /^(\d+)\s+msg_/m.exec(deliveries)![1]!;
  expect(await linkprev("resend", id, deliveryId)).toStartWith("Queued msg_");
  await eventually(() => expect(receiver.acknowledged()).toHaveLength(2));
  expect(receiver.received[1]!.id).toBe(receiver.received[0]!.id);
  expect(await linkprev("remove", id)).toBe(`Removed endpoint ${id}\n`);
  expect(await linkprev("list")).toStartWith("No webhook endpoints.");
});

// Last: it reads what every test above captured.
test("no delivery of this file carries a visitor's address or User-Agent", () => {
  const bodies = receivers.flatMap((receiver) => receiver.received.map((r) => r.body)).join("\n");
  expect(bodies).toContain("link.clicked");
  expect(bodies).not.toContain("203.0.113");
  expect(bodies).not.toContain("visitor-7f3a");
  expect(bodies).not.toContain("Twitterbot");
});
