// POST /api/subscriptions/cancel and /reactivate: one switch on Stripe, cancel at the end of the period or not.
import type { Workspace } from "../workspaces/acting.ts";
import { notFound } from "../http/errors.ts";
import { stripeOf, type BillingDeps } from "./deps.ts";
import { isSubscriptionValid, latestSubscription } from "../plans/entitlement.ts";
import { nowSeconds, recordSubscription } from "./store-subscription.ts";

async function setCancelAtPeriodEnd(deps: BillingDeps, workspace: Workspace, cancel: boolean): Promise<void> {
  const { stripe } = stripeOf(deps);
  const current = await latestSubscription(deps.database.db, workspace.id);
  if (!current || !isSubscriptionValid(current, deps.clock.now()) || current.cancelAtPeriodEnd === cancel) {
    throw notFound(
      cancel ? "There is no active subscription to cancel" : "There is no canceled subscription to reactivate",
    );
  }
  const updated = await stripe.subscriptions.update(current.stripeSubscriptionId, { cancel_at_period_end: cancel });
  await recordSubscription(deps, updated, nowSeconds(deps));
}

export const cancelSubscription = (deps: BillingDeps, workspace: Workspace) =>
  setCancelAtPeriodEnd(deps, workspace, true);
export const reactivateSubscription = (deps: BillingDeps, workspace: Workspace) =>
  setCancelAtPeriodEnd(deps, workspace, false);
