// Billing against a fake Stripe (real SDK, real HTTP, signed webhooks) and a fake VIES.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FAKE_PRICES, type FakeStripe } from "../fakes/stripe.ts";
import type { FakeVies } from "../fakes/vies.ts";
import { startBillingServer, type BillingServer } from "../helpers/billing-server.ts";
import {
  apiClient,
  type ApiClient,
  seedSubscription,
  seedUser,
  type TestServer,
  seedSession,
  seedApiToken,
  startTestServer,
} from "../helpers/server.ts";

let billing: BillingServer;
let stripe: FakeStripe;
let vies: FakeVies;
let server: TestServer;

beforeAll(async () => {
  billing = await startBillingServer({ VIES_TIMEOUT_MS: "500" });
  ({ stripe, vies, server } = billing);
});
afterAll(() => billing?.close());

type Customer = Pick<ApiClient, "userId" | "call">;

/** A new user with an API token (redirects not followed). */
const customer = (): Promise<Customer> => apiClient(server, null);

const row = (userId: number) =>
  server.sql.all<{
    planId: string;
    status: string;
    cancelAtPeriodEnd: number;
    currentPeriodEnd: number;
    stripeSubscriptionId: string;
  }>(
    `SELECT plan_id AS "planId", status, cancel_at_period_end AS "cancelAtPeriodEnd", current_period_end AS "currentPeriodEnd", stripe_subscription_id AS "stripeSubscriptionId" FROM subscriptions WHERE user_id = ?`,
    userId,
  );

/** Checkout started through our API, then "paid" at the fake's hosted page. */
async function checkout(who: Customer, planId: string, vatInfo?: unknown) {
  const response = await who.call("/api/subscriptions", {
    method: "POST",
    json: { planId, ...(vatInfo ? { vatInfo } : {}) },
  });
  expect(response.status).toBe(200);
  const { url } = await response.json();
  const sessionId = url.split("/checkout/")[1];
  const subscription = stripe.completeCheckout(sessionId);
  return { url, sessionId, session: stripe.sessions.get(sessionId)!, subscription };
}

describe("plans and business info", () => {
  test("GET /api/plans lists the three plans with prices and features", async () => {
    const plans = await (await fetch(`${server.url}/api/plans`)).json();
    expect(plans.map((p: { id: string }) => p.id)).toEqual(["basic", "pro", "enterprise"]);
    for (const plan of plans) {
      expect(Object.keys(plan).sort()).toEqual(["description", "features", "id", "name", "priceMonthly"]);
      expect(plan.priceMonthly).toBeGreaterThan(0);
    }
  });
  test("GET /api/business/info", async () => {
    expect(await (await fetch(`${server.url}/api/business/info`)).json()).toEqual({ countryCode: "PT" });
  });
});

describe("checkout and webhooks", () => {
  test("the checkout URL is a Stripe Checkout session for the plan's price, with a customer created once", async () => {
    const ana = await customer();
    const first = await (await ana.call("/api/subscriptions", { method: "POST", json: { planId: "pro" } })).json();
    expect(first.url).toStartWith(`${stripe.url}/checkout/cs_test_`);
    const session = stripe.sessions.get(first.url.split("/checkout/")[1])!;
    expect(session.line_items[0].price).toBe(FAKE_PRICES.pro);
    expect(session.success_url).toBe(`${server.ctx.config.publicUrl}/payment-success?session_id={CHECKOUT_SESSION_ID}`);
    expect(session.cancel_url).toBe(`${server.ctx.config.publicUrl}/pricing`);
    expect(session.client_reference_id).toBe(String(ana.userId));
    const customerId = (await server.sql.get<{ c: string }>(
      "SELECT stripe_customer_id AS c FROM workspaces WHERE personal_user_id = ?",
      ana.userId,
    ))!.c;
    expect(session.customer).toBe(customerId);
    await ana.call("/api/subscriptions", { method: "POST", json: { planId: "basic" } });
    expect([...stripe.customers.values()].filter((c) => c.metadata.userId === String(ana.userId))).toHaveLength(1);
    expect((await ana.call("/api/subscriptions", { method: "POST", json: { planId: "gold" } })).status).toBe(400);
  });

  test("a webhook with a bad or missing signature is a 400 and changes nothing", async () => {
    const eve = await customer();
    const { subscription } = await checkout(eve, "pro");
    const event = stripe.event("customer.subscription.updated", subscription);
    expect((await stripe.sendWebhook(server.url, event, { secret: "whsec_wrong" })).status).toBe(400);
    expect((await stripe.sendWebhook(server.url, event, { signature: null })).status).toBe(400);
    expect((await stripe.sendWebhook(server.url, event, { signature: "t=1,v1=deadbeef" })).status).toBe(400);
    expect(await row(eve.userId)).toEqual([]);
    expect(await server.sql.get("SELECT 1 FROM stripe_events WHERE id = ?", event.id)).toBeNull();
  });

  test("checkout.session.completed + customer.subscription.updated give an active subscription; a replay is a no-op", async () => {
    const bo = await customer();
    const { session, subscription } = await checkout(bo, "pro");
    expect(await (await bo.call("/api/subscriptions/active")).json()).toEqual({ active: false, subscription: null });

    const completed = stripe.event("checkout.session.completed", session);
    expect((await stripe.sendWebhook(server.url, completed)).status).toBe(200);
    const updated = stripe.event("customer.subscription.updated", subscription);
    expect((await stripe.sendWebhook(server.url, updated)).status).toBe(200);

    const active = await (await bo.call("/api/subscriptions/active")).json();
    expect(active).toEqual({
      active: true,
      subscription: {
        planId: "pro",
        status: "active",
        currentPeriodEnd: new Date(subscription.items.data[0].current_period_end * 1000).toISOString(),
        cancelAtPeriodEnd: false,
        plan: { name: "Pro" },
      },
    });

    // Replaying an event that says "canceled" must not apply twice... nor at all once seen.
    const before = await row(bo.userId);
    const replay = await stripe.sendWebhook(server.url, updated);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, duplicate: true });
    expect(await row(bo.userId)).toEqual(before);
    expect(await row(bo.userId)).toHaveLength(1);
  });

  test("out-of-order delivery keeps the newest state", async () => {
    const cy = await customer();
    const { subscription } = await checkout(cy, "basic");
    const newer = stripe.event("customer.subscription.updated", { ...subscription, cancel_at_period_end: true }, 10);
    const older = stripe.event("customer.subscription.created", subscription, -10);
    await stripe.sendWebhook(server.url, newer);
    await stripe.sendWebhook(server.url, older);
    expect(await row(cy.userId)).toMatchObject([{ planId: "basic", cancelAtPeriodEnd: 1 }]);
  });

  test("customer.subscription.deleted ends validity; invoices are recorded as payments", async () => {
    const di = await customer();
    const { subscription } = await checkout(di, "pro");
    await stripe.sendWebhook(server.url, stripe.event("customer.subscription.created", subscription));
    expect((await (await di.call("/api/subscriptions/active")).json()).active).toBe(true);

    const invoice = {
      id: "in_1",
      object: "invoice",
      customer: subscription.customer,
      amount_paid: 1500,
      amount_due: 1500,
      currency: "eur",
      hosted_invoice_url: "https://invoice.example/in_1",
      payments: {
        object: "list",
        data: [
          { id: "inpay_1", object: "invoice_payment", payment: { type: "payment_intent", payment_intent: "pi_1" } },
        ],
      },
    };
    await stripe.sendWebhook(server.url, stripe.event("invoice.payment_failed", invoice));
    await stripe.sendWebhook(server.url, stripe.event("invoice.paid", invoice, 1));
    expect(
      await server.sql.all(
        `SELECT amount, currency, status, receipt_url AS "receiptUrl", stripe_invoice_id AS invoice FROM payments WHERE user_id = ?`,
        di.userId,
      ),
    ).toEqual([
      { amount: 1500, currency: "eur", status: "paid", receiptUrl: "https://invoice.example/in_1", invoice: "in_1" },
    ]);

    await stripe.sendWebhook(
      server.url,
      stripe.event("customer.subscription.deleted", { ...subscription, status: "canceled" }, 5),
    );
    expect(await (await di.call("/api/subscriptions/active")).json()).toMatchObject({
      active: false,
      subscription: { status: "canceled" },
    });
  });

  test("/payment-success?session_id= records the subscription with no webhook at all", async () => {
    const user = await seedUser(server.sql);
    const { token } = await seedApiToken(server.sql, user.id, "t");
    const who: Customer = {
      userId: user.id,
      call: (path, init = {}) =>
        fetch(`${server.url}${path}`, {
          method: init.method ?? "GET",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: init.json ? JSON.stringify(init.json) : undefined,
        }),
    };
    const { sessionId } = await checkout(who, "enterprise");
    const { token: sessionToken } = await seedSession(server.sql, user.id);
    const page = await fetch(`${server.url}/payment-success?session_id=${sessionId}`, {
      headers: { cookie: `lp_session=${sessionToken}` },
    });
    expect(page.status).toBe(200);
    const html = await page.text();
    // The page itself checks the subscription after 1.5 s (the browser tests watch that); the row is there already.
    expect(html).toContain("Verifying your subscription...");
    expect(await row(user.id)).toMatchObject([{ planId: "enterprise", status: "active" }]);

    // Someone else's session id does nothing for another user.
    const other = await seedUser(server.sql);
    const { token: otherToken } = await seedSession(server.sql, other.id);
    await fetch(`${server.url}/payment-success?session_id=${sessionId}`, {
      headers: { cookie: `lp_session=${otherToken}` },
    });
    expect(await row(other.id)).toEqual([]);
    // Signed out: back to the landing page.
    expect((await fetch(`${server.url}/payment-success`, { redirect: "manual" })).status).toBe(302);
  });
});

describe("managing a subscription", () => {
  async function subscribed(plan: string) {
    const who = await customer();
    const { subscription } = await checkout(who, plan);
    await stripe.sendWebhook(server.url, stripe.event("customer.subscription.created", subscription));
    return { who, subscription };
  }

  test("cancel then reactivate round-trips on both sides", async () => {
    const { who, subscription } = await subscribed("pro");
    const canceled = await who.call("/api/subscriptions/cancel", { method: "POST" });
    expect(canceled.status).toBe(200);
    expect(stripe.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);
    expect((await (await who.call("/api/subscriptions/active")).json()).subscription.cancelAtPeriodEnd).toBe(true);
    // Still valid until the period ends.
    expect((await (await who.call("/api/subscriptions/active")).json()).active).toBe(true);
    expect((await who.call("/api/subscriptions/cancel", { method: "POST" })).status).toBe(404);

    expect((await who.call("/api/subscriptions/reactivate", { method: "POST" })).status).toBe(200);
    expect(stripe.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(false);
    expect((await (await who.call("/api/subscriptions/active")).json()).subscription.cancelAtPeriodEnd).toBe(false);
    expect((await who.call("/api/subscriptions/reactivate", { method: "POST" })).status).toBe(404);
  });

  test("nothing to cancel is a 404 with a message", async () => {
    const none = await customer();
    const response = await none.call("/api/subscriptions/cancel", { method: "POST" });
    expect(response.status).toBe(404);
    expect((await response.json()).message).toBe("There is no active subscription to cancel");
  });

  test("a plan change updates the one subscription (no second checkout)", async () => {
    const { who, subscription } = await subscribed("basic");
    const response = await who.call("/api/subscriptions", { method: "POST", json: { planId: "enterprise" } });
    expect(await response.json()).toEqual({ url: "/payment-success" });
    expect(stripe.subscriptions.get(subscription.id)!.items.data[0].price.id).toBe(FAKE_PRICES.enterprise);
    expect(await row(who.userId)).toMatchObject([{ planId: "enterprise", stripeSubscriptionId: subscription.id }]);
    expect((await who.call("/api/subscriptions", { method: "POST", json: { planId: "enterprise" } })).status).toBe(409);
  });

  test("validity goes false when the status is not active, and when cancelled past the period end", async () => {
    const pastDue = await customer();
    await seedSubscription(server.sql, pastDue.userId, "pro", { status: "past_due" });
    expect((await (await pastDue.call("/api/subscriptions/active")).json()).active).toBe(false);
    const ended = await customer();
    await seedSubscription(server.sql, ended.userId, "pro", {
      cancelAtPeriodEnd: true,
      currentPeriodEnd: Date.now() - 1000,
    });
    expect((await (await ended.call("/api/subscriptions/active")).json()).active).toBe(false);
    const ending = await customer();
    await seedSubscription(server.sql, ending.userId, "pro", {
      cancelAtPeriodEnd: true,
      currentPeriodEnd: Date.now() + 60_000,
    });
    expect((await (await ending.call("/api/subscriptions/active")).json()).active).toBe(true);
  });
});

describe("VAT exemption through VIES", () => {
  const validate = (who: Customer | null, json: unknown) =>
    who
      ? who.call("/api/vat/validate", { method: "POST", json })
      : fetch(`${server.url}/api/vat/validate`, {
          method: "POST",
          body: JSON.stringify(json),
          headers: { "content-type": "application/json" },
        });

  test("valid, with the company name, stored for a signed-in user and used at checkout (reverse charge)", async () => {
    const firm = await customer();
    const response = await validate(firm, { countryCode: "DE", vatNumber: "DE 123.456.789" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ isValid: true, companyName: "Beispiel GmbH" });
    expect(vies.requests.at(-1)).toEqual({ countryCode: "DE", vatNumber: "123456789" });

    const { session } = await checkout(firm, "pro", {
      countryCode: "DE",
      vatNumber: "123456789",
      companyName: "Beispiel GmbH",
    });
    expect(stripe.customers.get(session.customer)!.tax_exempt).toBe("reverse");
    expect(stripe.taxIds.filter((t) => t.customer === session.customer)).toMatchObject([
      { type: "eu_vat", value: "DE123456789" },
    ]);
  });

  test("invalid numbers are answered isValid false; anonymous checks store nothing", async () => {
    const response = await validate(null, { countryCode: "FR", vatNumber: "00000000000" });
    expect(await response.json()).toMatchObject({ isValid: false, companyName: null });
  });

  test("Greece is EL in VIES", async () => {
    const response = await validate(null, { countryCode: "GR", vatNumber: "094259216" });
    expect(await response.json()).toMatchObject({ isValid: true });
    expect(vies.requests.at(-1)).toEqual({ countryCode: "EL", vatNumber: "094259216" });
  });

  test("the business's own country is refused with 'not applicable'", async () => {
    const response = await validate(null, { countryCode: "PT", vatNumber: "PT123456789" });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain("not applicable");
  });

  test("both fields are required; the country must be an EU member state", async () => {
    expect((await validate(null, { countryCode: "DE", vatNumber: " .-" })).status).toBe(400);
    expect((await validate(null, { countryCode: "US", vatNumber: "123" })).status).toBe(400);
    expect((await validate(null, {})).status).toBe(400);
  });

  test("VIES down or too slow is a 503, never a valid", async () => {
    vies.mode = "down";
    const down = await validate(null, { countryCode: "DE", vatNumber: "123456789" });
    expect(down.status).toBe(503);
    expect((await down.json()).message).toContain("VIES");
    vies.mode = "slow";
    expect((await validate(null, { countryCode: "DE", vatNumber: "123456789" })).status).toBe(503);
    vies.mode = "up";
  });
});

describe("billing off (self-hosting)", () => {
  test("everyone has an active enterprise subscription; plans still answer; subscribe and cancel say billing is disabled", async () => {
    const selfHosted = await startTestServer();
    try {
      const user = await seedUser(selfHosted.sql);
      const { token } = await seedApiToken(selfHosted.sql, user.id, "t");
      const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      expect(await (await fetch(`${selfHosted.url}/api/subscriptions/active`, { headers })).json()).toMatchObject({
        active: true,
        subscription: { planId: "enterprise" },
      });
      expect((await fetch(`${selfHosted.url}/api/plans`)).status).toBe(200);
      for (const path of ["/api/subscriptions", "/api/subscriptions/cancel", "/api/subscriptions/reactivate"]) {
        const response = await fetch(`${selfHosted.url}${path}`, {
          method: "POST",
          headers,
          body: JSON.stringify({ planId: "pro" }),
        });
        expect(response.status).toBe(409);
        expect((await response.json()).message).toBe("Billing is disabled on this server");
      }
      const link = await fetch(`${selfHosted.url}/api/links`, {
        method: "POST",
        headers,
        body: JSON.stringify({ title: "t", description: "d", targetUrl: "https://e.eu", customLinkSlug: "custom" }),
      });
      expect(link.status).toBe(201);
    } finally {
      await selfHosted.close();
    }
  });
});

describe("Stripe unreachable", () => {
  test("subscribing says the payment provider could not be reached (503), and nothing is stored", async () => {
    const offline = await startTestServer({ ...stripe.env, STRIPE_API_URL: "http://127.0.0.1:1" });
    try {
      const user = await seedUser(offline.sql);
      const { token } = await seedApiToken(offline.sql, user.id, "t");
      const response = await fetch(`${offline.url}/api/subscriptions`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: '{"planId":"pro"}',
      });
      expect(response.status).toBe(503);
      expect((await response.json()).message).toBe(
        "The payment provider could not be reached. Please try again later.",
      );
      expect(
        await offline.sql.get("SELECT stripe_customer_id AS c FROM workspaces WHERE personal_user_id = ?", user.id),
      ).toEqual({
        c: null,
      });
    } finally {
      await offline.close();
    }
  });
});
