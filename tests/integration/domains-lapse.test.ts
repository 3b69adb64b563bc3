// An account whose plan lapses (a Stripe webhook) or that an operator suspends stops having its custom domains
// served, and their certificates allowed, within a second: the change is announced on the change bus, not left to
// the host map's next reload (src/domains/host-map.ts).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { setSuspended } from "../../src/safety/suspend-user.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { eventually } from "../helpers/eventually.ts";
import { crawlerAgents, seedApiToken, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";
import { startFakeStripe, type FakeStripe } from "../fakes/stripe.ts";

let dns: TestDnsServer;
let stripe: FakeStripe;
let server: TestServer;
const CNAME_TARGET = "edge.lp.example";

beforeAll(async () => {
  dns = await startDnsServer();
  stripe = startFakeStripe();
  server = await startTestServer({
    ...stripe.env,
    PUBLIC_URL: "https://lp.example",
    DNS_SERVERS: dns.address,
    DOMAIN_CNAME_TARGET: CNAME_TARGET,
    TLS_ASK_PORT: "0",
  });
});
afterAll(async () => {
  await server.close();
  stripe.stop();
  dns.close();
});

const person = crawlerAgents.people["chrome-windows"]!;
const ask = async (name: string) => (await fetch(`${server.askUrl}/tls/ask?domain=${encodeURIComponent(name)}`)).status;
const onHost = async (host: string, path: string) =>
  (await fetch(`${server.url}${path}`, { redirect: "manual", headers: { host, "user-agent": person } })).status;
/** Within a second of the change, on the node that made it. */
const withinASecond = (check: () => Promise<void>) => eventually(check, { timeoutMs: 1000 });

/** A pro customer (checkout through the fake Stripe) with a verified domain `hostname` and a link `promo` on it. */
async function servedCustomer(hostname: string) {
  const user = await seedUser(server.sql);
  const { token } = await seedApiToken(server.sql, user.id, "test");
  const call = (path: string, method = "GET", json?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(json === undefined ? {} : { "content-type": "application/json" }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
  const { url } = (await (await call("/api/subscriptions", "POST", { planId: "pro" })).json()) as { url: string };
  const subscription = stripe.completeCheckout(url.split("/checkout/")[1]!);
  expect(
    (await stripe.sendWebhook(server.url, stripe.event("customer.subscription.created", subscription))).status,
  ).toBe(200);
  const added = await call("/api/domains", "POST", { hostname });
  expect(added.status).toBe(201);
  const domain = (await added.json()) as { id: number; verification: { txtName: string; txtValue: string } };
  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(hostname, { cname: CNAME_TARGET });
  expect(((await (await call(`/api/domains/${domain.id}/verify`, "POST")).json()) as { status: string }).status).toBe(
    "verified",
  );
  expect(
    (
      await call("/api/links", "POST", {
        targetUrl: "https://example.org/promo",
        title: "Promo",
        description: "On the domain",
        customLinkSlug: "promo",
        domain: hostname,
      })
    ).status,
  ).toBe(201);
  await eventually(async () => expect([await ask(hostname), await onHost(hostname, "/promo")]).toEqual([200, 302]));
  return { user, subscription };
}

test("a subscription deleted by a Stripe webhook stops its domains being served, and their certificates allowed, within a second", async () => {
  const { subscription } = await servedCustomer("links.lapsed-acme.test");
  const ended = { ...subscription, status: "canceled" };
  expect((await stripe.sendWebhook(server.url, stripe.event("customer.subscription.deleted", ended, 5))).status).toBe(
    200,
  );
  await withinASecond(async () =>
    expect([await ask("links.lapsed-acme.test"), await onHost("links.lapsed-acme.test", "/promo")]).toEqual([403, 404]),
  );
});

test("suspending an account stops its domains being served within a second; unsuspending serves them again", async () => {
  const { user } = await servedCustomer("links.suspended-acme.test");
  await setSuspended(server.ctx.safety, user.email, true, "ops", "phishing");
  await withinASecond(async () =>
    expect([await ask("links.suspended-acme.test"), await onHost("links.suspended-acme.test", "/promo")]).toEqual([
      403, 404,
    ]),
  );
  await setSuspended(server.ctx.safety, user.email, false, "ops", "appeal accepted");
  await withinASecond(async () =>
    expect([await ask("links.suspended-acme.test"), await onHost("links.suspended-acme.test", "/promo")]).toEqual([
      200, 302,
    ]),
  );
});
