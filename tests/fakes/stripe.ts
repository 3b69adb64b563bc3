// A fake Stripe speaking the REST API the SDK uses (form-encoded requests, JSON objects in the shapes of the
// API version the SDK pins): customers (+ tax ids), checkout sessions with a hosted page, subscriptions
// retrieve/update, and signed webhooks built with the SDK's own test-header helper.
import Stripe from "stripe";
import { serveOnLoopback } from "./loopback.ts";

type Json = Record<string, any>;

export type FakeStripe = {
  url: string;
  env: Record<string, string>;
  customers: Map<string, Json>;
  sessions: Map<string, Json>;
  subscriptions: Map<string, Json>;
  taxIds: Json[];
  /** What the hosted checkout does when a card is accepted: the session completes with a new subscription. */
  completeCheckout: (sessionId: string) => Json;
  event: (type: string, object: Json, createdOffsetSeconds?: number) => Json;
  sendWebhook: (
    appUrl: string,
    event: Json,
    options?: { secret?: string; signature?: string | null },
  ) => Promise<Response>;
  stop: () => void;
};

export const FAKE_STRIPE_KEY = "sk_test_fake";
export const FAKE_WEBHOOK_SECRET = "whsec_fake_secret";
export const FAKE_PRICES = { basic: "price_basic_m", pro: "price_pro_m", enterprise: "price_enterprise_m" };

/** Decodes Stripe's form encoding: `items[0][price]=x&metadata[userId]=1` into nested objects and arrays. */
export function decodeStripeForm(body: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node: any = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

let counter = 0;
const id = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++counter).toString(36)}`;
const now = () => Math.floor(Date.now() / 1000);
const bool = (value: unknown) => value === true || value === "true";

export function startFakeStripe(): FakeStripe {
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const subscriptions = new Map<string, Json>();
  const taxIds: Json[] = [];
  const sdk = new Stripe(FAKE_STRIPE_KEY);

  const error = (status: number, message: string, code?: string) =>
    Response.json({ error: { type: "invalid_request_error", message, code } }, { status });
  const missing = (what: string, key: string) => error(404, `No such ${what}: '${key}'`, "resource_missing");

  function newSubscription(customer: string, price: string, metadata: Json): Json {
    const start = now();
    const subscription = {
      id: id("sub"),
      object: "subscription",
      customer,
      status: "active",
      cancel_at_period_end: false,
      created: start,
      metadata,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            quantity: 1,
            current_period_start: start,
            current_period_end: start + 30 * 86400,
            price: { id: price, object: "price", recurring: { interval: "month" } },
          },
        ],
      },
    };
    subscriptions.set(subscription.id, subscription);
    return subscription;
  }

  const fake: FakeStripe = {
    url: "",
    env: {},
    customers,
    sessions,
    subscriptions,
    taxIds,
    completeCheckout(sessionId) {
      const session = sessions.get(sessionId)!;
      const subscription = newSubscription(
        session.customer,
        session.line_items[0].price,
        session.subscription_data?.metadata ?? {},
      );
      Object.assign(session, { status: "complete", payment_status: "paid", subscription: subscription.id });
      return subscription;
    },
    event: (type, object, createdOffsetSeconds = 0) => ({
      id: id("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: now() + createdOffsetSeconds,
      type,
      livemode: false,
      data: { object: structuredClone(object) },
    }),
    async sendWebhook(appUrl, event, options = {}) {
      const payload = JSON.stringify(event);
      const signature =
        options.signature !== undefined
          ? options.signature
          : await sdk.webhooks.generateTestHeaderStringAsync({
              payload,
              secret: options.secret ?? FAKE_WEBHOOK_SECRET,
            });
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (signature !== null) headers["stripe-signature"] = signature;
      return fetch(`${appUrl}/api/stripe/webhook`, { method: "POST", body: payload, headers });
    },
    stop: () => loopback.stop(),
  };

  const loopback = serveOnLoopback(async (request) => {
    const url = new URL(request.url);
    const parts = url.pathname.split("/").filter(Boolean);

    // The hosted checkout page a browser is sent to: "paying" completes the session and returns to the app.
    if (parts[0] === "checkout" && parts[1]) {
      const session = sessions.get(parts[1]);
      if (!session) return new Response("unknown session", { status: 404 });
      fake.completeCheckout(session.id);
      return Response.redirect(session.success_url.replace("{CHECKOUT_SESSION_ID}", session.id), 303);
    }

    if (request.headers.get("authorization") !== `Bearer ${FAKE_STRIPE_KEY}`)
      return error(401, "Invalid API Key provided");
    const body = request.method === "POST" ? decodeStripeForm(await request.text()) : {};
    const call = `${request.method} /${parts.slice(1).join("/")}`;
    let m: RegExpExecArray | null;

    if (call === "POST /customers") {
      const customer = {
        id: id("cus"),
        object: "customer",
        email: body.email ?? null,
        name: body.name ?? null,
        metadata: body.metadata ?? {},
        tax_exempt: body.tax_exempt ?? "none",
      };
      customers.set(customer.id, customer);
      return Response.json(customer);
    }
    if ((m = /^POST \/customers\/([^/]+)\/tax_ids$/.exec(call))) {
      const key = m[1]!;
      if (!customers.has(key)) return missing("customer", key);
      if (taxIds.some((t) => t.customer === key && t.value === body.value))
        return error(400, "Tax ID already exists", "resource_already_exists");
      const taxId = { id: id("txi"), object: "tax_id", customer: key, type: body.type, value: body.value };
      taxIds.push(taxId);
      return Response.json(taxId);
    }
    if ((m = /^(GET|POST) \/customers\/([^/]+)$/.exec(call))) {
      const customer = customers.get(m[2]!);
      if (!customer) return missing("customer", m[2]!);
      if (m[1] === "POST") Object.assign(customer, body);
      return Response.json(customer);
    }
    if (call === "POST /checkout/sessions") {
      if (body.mode !== "subscription" || !body.line_items?.[0]?.price || !body.success_url)
        return error(400, "Missing required param");
      if (body.customer && !customers.has(body.customer)) return missing("customer", body.customer);
      const sessionId = id("cs_test");
      const session = {
        id: sessionId,
        object: "checkout.session",
        status: "open",
        payment_status: "unpaid",
        subscription: null,
        url: `${fake.url}/checkout/${sessionId}`,
        ...body,
      };
      sessions.set(sessionId, session);
      return Response.json(session);
    }
    if ((m = /^GET \/checkout\/sessions\/([^/]+)$/.exec(call))) {
      const session = sessions.get(m[1]!);
      return session ? Response.json(session) : missing("checkout.session", m[1]!);
    }
    if ((m = /^(GET|POST) \/subscriptions\/([^/]+)$/.exec(call))) {
      const subscription = subscriptions.get(m[2]!);
      if (!subscription) return missing("subscription", m[2]!);
      if (m[1] === "POST") {
        if (body.cancel_at_period_end !== undefined)
          subscription.cancel_at_period_end = bool(body.cancel_at_period_end);
        if (body.metadata) subscription.metadata = { ...subscription.metadata, ...body.metadata };
        for (const item of body.items ?? []) {
          const existing = subscription.items.data.find((i: Json) => i.id === item.id);
          if (!existing) return error(400, `No such subscription item: '${item.id}'`);
          if (item.price) existing.price = { ...existing.price, id: item.price };
        }
      }
      return Response.json(subscription);
    }
    // Cancel now (subscriptions.cancel): no further invoice. Canceling again answers the canceled subscription.
    if ((m = /^DELETE \/subscriptions\/([^/]+)$/.exec(call))) {
      const subscription = subscriptions.get(m[1]!);
      if (!subscription) return missing("subscription", m[1]!);
      subscription.status = "canceled";
      subscription.canceled_at ??= Math.floor(Date.now() / 1000);
      return Response.json(subscription);
    }
    return error(404, `Unrecognized request URL (${request.method}: ${url.pathname})`);
  });

  fake.url = loopback.url;
  fake.env = {
    STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
    STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
    STRIPE_API_URL: fake.url,
    STRIPE_PRICE_BASIC: FAKE_PRICES.basic,
    STRIPE_PRICE_PRO: FAKE_PRICES.pro,
    STRIPE_PRICE_ENTERPRISE: FAKE_PRICES.enterprise,
  };
  return fake;
}
