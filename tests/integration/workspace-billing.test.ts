// One bill per workspace (issue 50 item 5, docs/decisions/0069), on the engine the run chose, against the fake Stripe
// and fake VIES: a team's checkout, customer, VAT exemption, webhooks and payments are the team's, never its owner's
// personal workspace's; only roles with billing.write start a checkout or keep a VAT number.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { generateSecret, hashSecret } from "../../src/auth/tokens.ts";
import type { FakeStripe } from "../fakes/stripe.ts";
import { startBillingServer, type BillingServer } from "../helpers/billing-server.ts";
import { seedApiToken, seedUser, type TestServer } from "../helpers/server.ts";

let billing: BillingServer;
let stripe: FakeStripe;
let server: TestServer;

beforeAll(async () => {
  billing = await startBillingServer();
  ({ stripe, server } = billing);
});
afterAll(() => billing?.close());

type Caller = (path: string, init?: { method?: string; json?: unknown }) => Promise<Response>;

const callerWith =
  (token: string): Caller =>
  (path, init = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });

/** A person with a token of their personal workspace. */
async function person() {
  const user = await seedUser(server.sql);
  return { id: user.id, personal: callerWith((await seedApiToken(server.sql, user.id)).token) };
}

/** A team workspace with `owner` as its owner; no subscription (so the basic plan's one seat). */
async function team(ownerId: number) {
  const slug = `team${crypto.randomUUID().slice(0, 8)}`;
  const { id } = (await server.sql.get<{ id: number }>(
    "INSERT INTO workspaces (slug, name) VALUES (?, ?) RETURNING id",
    slug,
    `Team ${slug}`,
  ))!;
  await join(id, ownerId, "owner");
  return id;
}

async function join(workspaceId: number, userId: number, role: string) {
  await server.sql.run(
    "INSERT INTO workspace_members (workspace_id, user_id, role) VALUES (?, ?, ?)",
    workspaceId,
    userId,
    role,
  );
}

/** A token of `userId` acting in the workspace, as POST /api/tokens makes it (no scopes: the role's powers). */
async function tokenIn(workspaceId: number, userId: number, scopes: string | null = null): Promise<Caller> {
  const token = `lp_${generateSecret()}`;
  await server.sql.run(
    "INSERT INTO api_tokens (user_id, workspace_id, name, token_hash, scopes) VALUES (?, ?, 'test', ?, ?)",
    userId,
    workspaceId,
    hashSecret(token),
    scopes,
  );
  return callerWith(token);
}

const customerOf = async (workspaceId: number) =>
  (await server.sql.get<{ c: string | null }>(
    "SELECT stripe_customer_id AS c FROM workspaces WHERE id = ?",
    workspaceId,
  ))!.c;

/** Checkout through our API, paid at the fake's page, and Stripe's two webhooks delivered. */
async function subscribePaid(caller: Caller, planId: string) {
  const response = await caller("/api/subscriptions", { method: "POST", json: { planId } });
  expect(response.status).toBe(200);
  const sessionId = (await response.json()).url.split("/checkout/")[1];
  const subscription = stripe.completeCheckout(sessionId);
  const session = stripe.sessions.get(sessionId)!;
  expect((await stripe.sendWebhook(server.url, stripe.event("checkout.session.completed", session))).status).toBe(200);
  expect(
    (await stripe.sendWebhook(server.url, stripe.event("customer.subscription.created", subscription))).status,
  ).toBe(200);
  return { session, subscription };
}

const invite = (caller: Caller, workspaceId: number) =>
  caller(`/api/workspaces/${workspaceId}/invites`, {
    method: "POST",
    json: { email: `x-${crypto.randomUUID().slice(0, 6)}@example.com`, role: "member" },
  });

describe("one bill per workspace", () => {
  test("a team workspace subscribes to pro and gets pro quotas while the owner's personal workspace stays basic", async () => {
    const ana = await person();
    const teamId = await team(ana.id);
    const teamCall = await tokenIn(teamId, ana.id);
    // Basic: one seat, the owner's.
    expect((await invite(teamCall, teamId)).status).toBe(403);

    const { session } = await subscribePaid(teamCall, "pro");
    // The team's own Stripe customer, named after the team; the personal workspace has none.
    expect(session.customer).toBe(await customerOf(teamId));
    expect(stripe.customers.get(session.customer)!.metadata).toMatchObject({ workspaceId: String(teamId) });
    expect(
      await customerOf(
        (await server.sql.get<{ id: number }>("SELECT id FROM workspaces WHERE personal_user_id = ?", ana.id))!.id,
      ),
    ).toBeNull();

    expect(await (await teamCall("/api/subscriptions/active")).json()).toMatchObject({
      active: true,
      subscription: { planId: "pro", plan: { name: "Pro" } },
    });
    expect(await (await ana.personal("/api/subscriptions/active")).json()).toEqual({
      active: false,
      subscription: null,
    });
    // Pro: five seats.
    expect((await invite(teamCall, teamId)).status).toBe(201);
  });

  test("a billing-role member can open checkout and keep a VAT number for the team; a member can do neither", async () => {
    const ana = await person();
    const bo = await person();
    const cy = await person();
    const teamId = await team(ana.id);
    await join(teamId, bo.id, "billing");
    await join(teamId, cy.id, "member");
    const asMember = await tokenIn(teamId, cy.id);
    const asBilling = await tokenIn(teamId, bo.id);

    const refused = await asMember("/api/subscriptions", { method: "POST", json: { planId: "pro" } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).message).toBeString();
    const vat = { countryCode: "DE", vatNumber: "DE123456789" };
    expect(await (await asMember("/api/vat/validate", { method: "POST", json: vat })).json()).toMatchObject({
      isValid: true,
    });
    // The owner's token without workspace:admin may not change the bill either.
    const ownerReader = await tokenIn(teamId, ana.id, "links:read");
    expect((await ownerReader("/api/vat/validate", { method: "POST", json: vat })).status).toBe(200);
    expect(await server.sql.get("SELECT vat_number AS n FROM workspaces WHERE id = ?", teamId)).toEqual({ n: null });
    expect(await customerOf(teamId)).toBeNull();

    await asBilling("/api/vat/validate", { method: "POST", json: vat });
    expect(await server.sql.get("SELECT vat_number AS n FROM workspaces WHERE id = ?", teamId)).toEqual({
      n: "123456789",
    });
    const opened = await asBilling("/api/subscriptions", { method: "POST", json: { planId: "pro" } });
    expect(opened.status).toBe(200);
    const customer = stripe.customers.get(
      stripe.sessions.get((await opened.json()).url.split("/checkout/")[1])!.customer,
    )!;
    // The team's exemption, not the payer's: reverse charge on the team's customer.
    expect(customer.tax_exempt).toBe("reverse");
    expect(await server.sql.get("SELECT vat_number AS n FROM workspaces WHERE personal_user_id = ?", bo.id)).toEqual({
      n: null,
    });
    expect((await asBilling("/api/vat", { method: "DELETE" })).status).toBe(204);
    expect((await asMember("/api/vat", { method: "DELETE" })).status).toBe(403);
  });

  test("a Stripe webhook for the team's customer updates the team only", async () => {
    const ana = await person();
    const teamId = await team(ana.id);
    const teamCall = await tokenIn(teamId, ana.id);
    const personal = await subscribePaid(ana.personal, "basic");
    const teamBill = await subscribePaid(teamCall, "pro");
    expect(teamBill.session.customer).not.toBe(personal.session.customer);

    // A change made in Stripe's dashboard carries no metadata: the customer says whose it is.
    const cancelled = { ...teamBill.subscription, metadata: {}, cancel_at_period_end: true };
    await stripe.sendWebhook(server.url, stripe.event("customer.subscription.updated", cancelled, 5));
    const invoice = {
      id: `in_${crypto.randomUUID().slice(0, 8)}`,
      object: "invoice",
      customer: teamBill.session.customer,
      amount_paid: 4900,
      amount_due: 4900,
      currency: "eur",
      hosted_invoice_url: "https://invoice.example/team",
    };
    await stripe.sendWebhook(server.url, stripe.event("invoice.paid", invoice));

    expect(await (await teamCall("/api/subscriptions/active")).json()).toMatchObject({
      subscription: { planId: "pro", cancelAtPeriodEnd: true },
    });
    expect(await (await ana.personal("/api/subscriptions/active")).json()).toMatchObject({
      active: true,
      subscription: { planId: "basic", cancelAtPeriodEnd: false },
    });
    expect(
      await server.sql.all(
        "SELECT workspace_id AS w, user_id AS u, amount FROM payments WHERE stripe_invoice_id = ?",
        invoice.id,
      ),
    ).toEqual([{ w: teamId, u: null, amount: 4900 }]);
  });
});
