// Subscriptions through Stripe: checkout, plan changes, cancel / reactivate, webhooks and the VAT exemption.
// Services take plain data; every Stripe call goes through the SDK client in deps.
import { and, eq, isNull, lte, or } from "drizzle-orm";
import type Stripe from "stripe";
import { z } from "zod";
import type { Config } from "../config.ts";
import type { ChangeBus, Database, Db } from "../db/ports.ts";
import { announceDomainChange } from "../domains/deps.ts";
import { tablesOf, type User } from "../db/tables.ts";
import { AppError, badRequest, conflict, notFound } from "../http/errors.ts";
import { entitlementFor, isSubscriptionValid, latestSubscription } from "./entitlement.ts";
import { planById, planForStripePrice, stripePriceFor, type PlanId } from "./plans.ts";
import { subscriptionFacts } from "./stripe.ts";
import { viesCountry, type VatCheck, type VatRequest } from "./vat.ts";

export type BillingDeps = {
  db: Db;
  database: Database;
  /** A plan change may start or stop serving the owner's custom domains on every node (src/domains/host-map.ts). */
  changes: ChangeBus;
  config: Config;
  stripe: Stripe | null;
  checkVat: (input: VatRequest) => Promise<VatCheck>;
};

const BILLING_OFF = "Billing is disabled on this server";

function stripeOf(deps: BillingDeps): { stripe: Stripe; settings: NonNullable<Config["stripe"]> } {
  if (!deps.stripe || !deps.config.stripe) throw conflict(BILLING_OFF);
  return { stripe: deps.stripe, settings: deps.config.stripe };
}

/** GET /api/subscriptions/active */
export async function activeSubscription(deps: BillingDeps, user: User) {
  const { active, plan, subscription } = await entitlementFor(deps.db, deps.config.stripe !== null, user.id);
  if (!deps.config.stripe) {
    return {
      active: true,
      subscription: {
        planId: plan.id,
        status: "active",
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        plan: { name: plan.name },
      },
    };
  }
  if (!subscription) return { active: false, subscription: null };
  return {
    active,
    subscription: {
      planId: subscription.planId,
      status: subscription.status,
      currentPeriodEnd: subscription.currentPeriodEnd,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      plan: { name: planById(subscription.planId)?.name ?? subscription.planId },
    },
  };
}

/**
 * Stores what Stripe says about a subscription, unless a newer observation is already stored: webhooks
 * arrive in any order, so `observedAt` (the event's `created`, in seconds) decides.
 */
/** storeSubscription outside a transaction, announced at once (handleWebhook announces after its commit). */
async function recordSubscription(
  deps: BillingDeps,
  subscription: Stripe.Subscription,
  observedAt: number,
): Promise<void> {
  await storeSubscription(deps.db, deps, subscription, observedAt);
  await announceDomainChange(deps);
}

async function storeSubscription(
  db: Db,
  deps: BillingDeps,
  subscription: Stripe.Subscription,
  observedAt: number,
): Promise<void> {
  const { subscriptions, users } = tablesOf(db);
  const facts = subscriptionFacts(subscription);
  const settings = deps.config.stripe!;
  const plan = facts.priceId ? planForStripePrice(settings, facts.priceId) : undefined;
  const [owner] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      facts.metadataUserId
        ? or(eq(users.stripeCustomerId, facts.customerId), eq(users.id, facts.metadataUserId))
        : eq(users.stripeCustomerId, facts.customerId),
    );
  if (!owner || !plan) {
    console.error(
      `Stripe subscription ${facts.stripeSubscriptionId}: unknown customer ${facts.customerId} or price ${facts.priceId}; not recorded`,
    );
    return;
  }
  const values = {
    userId: owner.id,
    stripeSubscriptionId: facts.stripeSubscriptionId,
    stripePriceId: facts.priceId,
    status: facts.status,
    planId: plan.id,
    isAnnual: facts.isAnnual,
    currentPeriodStart: facts.currentPeriodStart,
    currentPeriodEnd: facts.currentPeriodEnd,
    cancelAtPeriodEnd: facts.cancelAtPeriodEnd,
    stripeEventAt: observedAt,
    updatedAt: new Date(),
  };
  await db
    .insert(subscriptions)
    .values(values)
    .onConflictDoUpdate({
      target: subscriptions.stripeSubscriptionId,
      set: values,
      // Applied only when this observation is at least as new as the stored one.
      setWhere: lte(subscriptions.stripeEventAt, observedAt),
    });
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

export const CheckoutInput = z.object(
  {
    planId: z.enum(["basic", "pro", "enterprise"], "Choose a plan: basic, pro or enterprise"),
    vatInfo: z.object({ countryCode: z.string(), vatNumber: z.string(), companyName: z.string().nullish() }).nullish(),
  },
  "Choose a plan: basic, pro or enterprise",
);

/** What a checkout asks for, parsed by the route (CheckoutInput, then VatInput for the VAT details). */
export type CheckoutRequest = { planId: PlanId; vatInfo: VatRequest | null };

/** The user's stored exemption, checked again with VIES when the checkout names another number. */
async function exemptionFor(deps: BillingDeps, user: User, wanted: VatRequest | null): Promise<User> {
  if (!wanted) return user;
  if (user.vatCountryCode === wanted.countryCode && user.vatNumber && wanted.vatNumber.endsWith(user.vatNumber))
    return user;
  const check = await deps.checkVat(wanted);
  if (!check.isValid)
    throw badRequest("Invalid VAT number: not registered in the VIES system or could not be verified", "vatInfo");
  return storeExemption(deps, user, check);
}

async function storeExemption(deps: BillingDeps, user: User, check: VatCheck): Promise<User> {
  const { users } = tablesOf(deps.db);
  const [updated] = await deps.db
    .update(users)
    .set({
      vatCountryCode: check.countryCode,
      vatNumber: check.vatNumber,
      vatCompanyName: check.companyName,
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id))
    .returning();
  return updated!;
}

async function ensureCustomer(deps: BillingDeps, stripe: Stripe, user: User): Promise<string> {
  const { users } = tablesOf(deps.db);
  const exempt = Boolean(user.vatCountryCode && user.vatNumber);
  const taxExempt = exempt ? ("reverse" as const) : ("none" as const);
  let customerId = user.stripeCustomerId;
  if (!customerId) {
    const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || undefined;
    const customer = await stripe.customers.create(
      { email: user.email, name, metadata: { userId: String(user.id) }, tax_exempt: taxExempt },
      { idempotencyKey: `customer-${user.id}` },
    );
    customerId = customer.id;
    await deps.db
      .update(users)
      .set({ stripeCustomerId: customerId, updatedAt: new Date() })
      .where(eq(users.id, user.id));
  } else {
    await stripe.customers.update(customerId, { tax_exempt: taxExempt });
  }
  if (exempt) {
    await stripe.customers
      .createTaxId(customerId, { type: "eu_vat", value: `${viesCountry(user.vatCountryCode!)}${user.vatNumber}` })
      .catch((error: unknown) => {
        // Already attached from an earlier checkout: fine.
        if ((error as { code?: string }).code !== "resource_already_exists") throw error;
      });
  }
  return customerId;
}

/** POST /api/subscriptions: a Checkout URL, or a plan change on the subscription the user already has. */
export async function subscribe(
  deps: BillingDeps,
  user: User,
  { planId, vatInfo }: CheckoutRequest,
): Promise<{ url: string }> {
  const { stripe, settings } = stripeOf(deps);
  const price = stripePriceFor(settings, planId);
  const current = await latestSubscription(deps.db, user.id);

  if (current && isSubscriptionValid(current)) {
    if (current.planId === planId && !current.cancelAtPeriodEnd) throw conflict("You are already on this plan");
    const live = await stripe.subscriptions.retrieve(current.stripeSubscriptionId);
    const itemId = subscriptionFacts(live).itemId;
    if (!itemId) throw new AppError(502, "Stripe returned a subscription without items");
    const updated = await stripe.subscriptions.update(current.stripeSubscriptionId, {
      items: [{ id: itemId, price }],
      proration_behavior: "create_prorations",
      cancel_at_period_end: false,
      metadata: { userId: String(user.id), planId },
    });
    await recordSubscription(deps, updated, nowSeconds());
    return { url: "/payment-success" };
  }

  const customer = await ensureCustomer(deps, stripe, await exemptionFor(deps, user, vatInfo));
  const base = deps.config.publicUrl;
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: String(user.id),
    line_items: [{ price, quantity: 1 }],
    success_url: `${base}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/pricing`,
    metadata: { userId: String(user.id), planId },
    subscription_data: { metadata: { userId: String(user.id), planId } },
  });
  if (!session.url) throw new AppError(502, "Stripe did not return a checkout page");
  return { url: session.url };
}

/** /payment-success?session_id=…: records the subscription without waiting for the webhook. */
export async function confirmCheckout(deps: BillingDeps, user: User, sessionId: string): Promise<void> {
  const { stripe } = stripeOf(deps);
  if (!/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw notFound("Checkout session not found");
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  const customerId = typeof session.customer === "string" ? session.customer : session.customer?.id;
  // Only the user who started the checkout can confirm it.
  if (session.client_reference_id !== String(user.id) && customerId !== user.stripeCustomerId)
    throw notFound("Checkout session not found");
  const subscriptionId = typeof session.subscription === "string" ? session.subscription : session.subscription?.id;
  if (session.status !== "complete" || !subscriptionId) return;
  await recordSubscription(deps, await stripe.subscriptions.retrieve(subscriptionId), nowSeconds());
}

async function setCancelAtPeriodEnd(deps: BillingDeps, user: User, cancel: boolean): Promise<void> {
  const { stripe } = stripeOf(deps);
  const current = await latestSubscription(deps.db, user.id);
  if (!current || !isSubscriptionValid(current) || current.cancelAtPeriodEnd === cancel) {
    throw notFound(
      cancel ? "There is no active subscription to cancel" : "There is no canceled subscription to reactivate",
    );
  }
  const updated = await stripe.subscriptions.update(current.stripeSubscriptionId, { cancel_at_period_end: cancel });
  await recordSubscription(deps, updated, nowSeconds());
}

export const cancelSubscription = (deps: BillingDeps, user: User) => setCancelAtPeriodEnd(deps, user, true);
export const reactivateSubscription = (deps: BillingDeps, user: User) => setCancelAtPeriodEnd(deps, user, false);

async function recordPayment(db: Db, invoice: Stripe.Invoice, status: "paid" | "failed"): Promise<void> {
  const { payments, users } = tablesOf(db);
  const customerId = typeof invoice.customer === "string" ? invoice.customer : invoice.customer?.id;
  const [owner] = customerId
    ? await db.select({ id: users.id }).from(users).where(eq(users.stripeCustomerId, customerId))
    : [];
  if (!owner) return;
  const intent = invoice.payments?.data?.[0]?.payment?.payment_intent;
  const paymentIntentId = (typeof intent === "string" ? intent : intent?.id) ?? `invoice:${invoice.id}`;
  const values = {
    userId: owner.id,
    stripePaymentIntentId: paymentIntentId,
    stripeInvoiceId: invoice.id ?? null,
    amount: status === "paid" ? invoice.amount_paid : invoice.amount_due,
    currency: (invoice.currency || "usd").slice(0, 3),
    status,
    receiptUrl: invoice.hosted_invoice_url ?? null,
  };
  await db.insert(payments).values(values).onConflictDoUpdate({ target: payments.stripePaymentIntentId, set: values });
}

/** POST /api/stripe/webhook: verified, idempotent (each event id once), order-tolerant. */
export async function handleWebhook(
  deps: BillingDeps,
  rawBody: string,
  signature: string | null,
): Promise<{ received: true; duplicate?: true }> {
  const { stripeEvents, users } = tablesOf(deps.db);
  const { stripe, settings } = stripeOf(deps);
  let event: Stripe.Event;
  try {
    event = await stripe.webhooks.constructEventAsync(rawBody, signature ?? "", settings.webhookSecret);
  } catch {
    throw badRequest("Invalid Stripe signature");
  }
  if (
    (await deps.db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id))).length > 0
  )
    return { received: true, duplicate: true };

  // Fetch what an event only points at before the transaction, which does no other I/O.
  let checkoutSubscription: Stripe.Subscription | null = null;
  if (event.type === "checkout.session.completed") {
    const session = event.data.object;
    const subscriptionId = typeof session.subscription === "string" ? session.subscription : session.subscription?.id;
    if (session.mode === "subscription" && subscriptionId)
      checkoutSubscription = await stripe.subscriptions.retrieve(subscriptionId);
  }

  const applied = await deps.database.transaction(async (tx) => {
    const inserted = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (inserted.length === 0) return false;
    switch (event.type) {
      case "checkout.session.completed": {
        const customerId =
          typeof event.data.object.customer === "string" ? event.data.object.customer : event.data.object.customer?.id;
        const userId = Number(event.data.object.client_reference_id);
        if (customerId && userId) {
          await tx
            .update(users)
            .set({ stripeCustomerId: customerId })
            .where(
              and(eq(users.id, userId), or(eq(users.stripeCustomerId, customerId), isNull(users.stripeCustomerId))),
            );
        }
        if (checkoutSubscription) await storeSubscription(tx, deps, checkoutSubscription, event.created);
        break;
      }
      case "customer.subscription.created":
      case "customer.subscription.updated":
      case "customer.subscription.deleted":
        await storeSubscription(tx, deps, event.data.object, event.created);
        break;
      case "invoice.paid":
        await recordPayment(tx, event.data.object, "paid");
        break;
      case "invoice.payment_failed":
        await recordPayment(tx, event.data.object, "failed");
        break;
    }
    return true;
  });
  if (!applied) return { received: true, duplicate: true };
  await announceDomainChange(deps);
  return { received: true };
}

/** POST /api/vat/validate: the answer, and for a signed-in user a valid number is kept for checkout. */
export async function validateVatNumber(deps: BillingDeps, user: User | null, input: VatRequest) {
  const check = await deps.checkVat(input);
  if (check.isValid && user) await storeExemption(deps, user, check);
  return {
    isValid: check.isValid,
    companyName: check.companyName,
    countryCode: check.countryCode,
    vatNumber: check.vatNumber,
  };
}

export async function removeVatExemption(deps: BillingDeps, user: User): Promise<void> {
  const { users } = tablesOf(deps.db);
  await deps.db
    .update(users)
    .set({ vatCountryCode: null, vatNumber: null, vatCompanyName: null, updatedAt: new Date() })
    .where(eq(users.id, user.id));
}
