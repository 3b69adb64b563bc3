// What Stripe says about a subscription, stored: from a webhook (in its transaction), a checkout or a plan change.
import { and, asc, eq, lte, or } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { announceDomainChange } from "../domains/deps.ts";
import type { BillingDeps } from "./deps.ts";
import { planForStripePrice } from "../plans/plans.ts";
import { subscriptionFacts, type SubscriptionFacts } from "./stripe.ts";

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
  const { subscriptions } = tablesOf(db);
  const facts = subscriptionFacts(subscription);
  const settings = deps.config.stripe!;
  const plan = facts.priceId ? planForStripePrice(settings, facts.priceId) : undefined;
  const owner = await billedWorkspace(db, facts);
  if (!owner || !plan) {
    deps.log.warn(
      `Stripe subscription ${facts.stripeSubscriptionId}: unknown customer ${facts.customerId} or price ${facts.priceId}; not recorded`,
    );
    return;
  }
  const values = {
    userId: owner.userId,
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

/**
 * The workspace a subscription bills (the one its checkout named; before workspaces, the one whose Stripe customer it
 * is, or its user's personal one: docs/decisions/0069) and who pays: the checkout's user, else the workspace's
 * personal user, else its first owner.
 */
async function billedWorkspace(
  db: Db,
  facts: SubscriptionFacts,
): Promise<{ workspaceId: number; userId: number } | null> {
  const { users, workspaceMembers, workspaces } = tablesOf(db);
  const byCustomer = eq(workspaces.stripeCustomerId, facts.customerId);
  const [workspace] = await db
    .select({ id: workspaces.id, personalUserId: workspaces.personalUserId })
    .from(workspaces)
    .where(
      facts.metadataWorkspaceId
        ? eq(workspaces.id, facts.metadataWorkspaceId)
        : facts.metadataUserId
          ? or(byCustomer, eq(workspaces.personalUserId, facts.metadataUserId))
          : byCustomer,
    )
    .limit(1);
  if (!workspace) return null;
  const payerId = facts.metadataUserId ?? workspace.personalUserId;
  const [payer] = payerId
    ? await db.select({ id: users.id }).from(users).where(eq(users.id, payerId))
    : await db
        .select({ id: workspaceMembers.userId })
        .from(workspaceMembers)
        .where(and(eq(workspaceMembers.workspaceId, workspace.id), eq(workspaceMembers.role, "owner")))
        .orderBy(asc(workspaceMembers.createdAt))
        .limit(1);
  return payer ? { workspaceId: workspace.id, userId: payer.id } : null;
}

/** When a change Stripe answered directly was observed, in Stripe's unit (seconds). */
export const nowSeconds = (deps: BillingDeps) => Math.floor(deps.clock.now() / 1000);
