// What Stripe says about a subscription, stored: from a webhook (in its transaction), a checkout or a plan change.
import { eq, lte, or } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { announceDomainChange } from "../domains/deps.ts";
import type { BillingDeps } from "./deps.ts";
import { planForStripePrice } from "../plans/plans.ts";
import { subscriptionFacts } from "./stripe.ts";

/**
 * Stores what Stripe says about a subscription, unless a newer observation is already stored: webhooks
 * arrive in any order, so `observedAt` (the event's `created`, in seconds) decides.
 */
/** storeSubscription outside a transaction, announced at once (handleWebhook announces after its commit). */
export async function recordSubscription(
  deps: BillingDeps,
  subscription: Stripe.Subscription,
  observedAt: number,
): Promise<void> {
  await storeSubscription(deps.database.db, deps, subscription, observedAt);
  await announceDomainChange(deps);
}

export async function storeSubscription(
  db: Db,
  deps: BillingDeps,
  subscription: Stripe.Subscription,
  observedAt: number,
): Promise<void> {
  const { subscriptions, users, workspaces } = tablesOf(db);
  const facts = subscriptionFacts(subscription);
  const settings = deps.config.stripe!;
  const plan = facts.priceId ? planForStripePrice(settings, facts.priceId) : undefined;
  const [owner] = await db
    .select({ id: users.id, workspaceId: workspaces.id })
    .from(users)
    // The workspace the checkout named; else (a subscription from before workspaces) the customer's personal one.
    .innerJoin(
      workspaces,
      facts.metadataWorkspaceId
        ? eq(workspaces.id, facts.metadataWorkspaceId)
        : eq(workspaces.personalUserId, users.id),
    )
    .where(
      facts.metadataUserId
        ? or(eq(users.stripeCustomerId, facts.customerId), eq(users.id, facts.metadataUserId))
        : eq(users.stripeCustomerId, facts.customerId),
    );
  if (!owner || !plan) {
    deps.log.warn(
      `Stripe subscription ${facts.stripeSubscriptionId}: unknown customer ${facts.customerId} or price ${facts.priceId}; not recorded`,
    );
    return;
  }
  const values = {
    userId: owner.id,
    workspaceId: owner.workspaceId,
    stripeSubscriptionId: facts.stripeSubscriptionId,
    stripePriceId: facts.priceId,
    status: facts.status,
    planId: plan.id,
    isAnnual: facts.isAnnual,
    currentPeriodStart: facts.currentPeriodStart,
    currentPeriodEnd: facts.currentPeriodEnd,
    cancelAtPeriodEnd: facts.cancelAtPeriodEnd,
    stripeEventAt: observedAt,
    updatedAt: new Date(deps.clock.now()),
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

/** When a change Stripe answered directly was observed, in Stripe's unit (seconds). */
export const nowSeconds = (deps: BillingDeps) => Math.floor(deps.clock.now() / 1000);
