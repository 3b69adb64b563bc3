// /payment-success?session_id=…: the subscription a finished checkout started, recorded before the webhook comes.
import { notFound } from "../http/errors.ts";
import { stripeOf, type BillingDeps } from "./deps.ts";
import { nowSeconds, recordSubscription } from "./store-subscription.ts";
import type { Acting } from "../workspaces/acting.ts";

/** /payment-success?session_id=…: records the subscription without waiting for the webhook. */
export async function confirmCheckout(
  deps: BillingDeps,
  { user, workspace }: Acting,
  sessionId: string,
): Promise<void> {
  const { stripe } = stripeOf(deps);
  if (!/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw notFound("Checkout session not found");
  const session = await stripe.checkout.sessions.retrieve(sessionId);
  const customerId = typeof session.customer === "string" ? session.customer : session.customer?.id;
  // Only the user who started the checkout, or a checkout of the acting workspace's customer, can be confirmed.
  if (session.client_reference_id !== String(user.id) && customerId !== workspace.stripeCustomerId)
    throw notFound("Checkout session not found");
  const subscriptionId = typeof session.subscription === "string" ? session.subscription : session.subscription?.id;
  if (session.status !== "complete" || !subscriptionId) return;
  await recordSubscription(deps, await stripe.subscriptions.retrieve(subscriptionId), nowSeconds(deps));
}
