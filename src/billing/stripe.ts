// The only door to Stripe: the official SDK, pointed at STRIPE_API_URL (tests use a fake speaking the same API).
import Stripe from "stripe";
import type { Config } from "../config/config.ts";
import { AppError } from "../http/errors.ts";
import type { Logger } from "../observability/log.ts";

export type StripeClient = Stripe;

export function createStripe(config: NonNullable<Config["stripe"]>): Stripe {
  const api = new URL(config.apiUrl);
  return new Stripe(config.secretKey, {
    host: api.hostname,
    port: api.port || (api.protocol === "https:" ? 443 : 80),
    protocol: api.protocol === "https:" ? "https" : "http",
    maxNetworkRetries: 1,
    timeout: 20_000,
  });
}

/**
 * Runs work that calls Stripe, turning the SDK's failures into errors a user can read: the error handler
 * (src/http/error-handler.ts) knows AppError only, not the payment provider.
 */
export async function mappingStripeErrors<T>(log: Logger, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    log.warn(`Stripe: ${error.type}: ${error.message}`);
    throw error instanceof Stripe.errors.StripeConnectionError
      ? new AppError(503, "The payment provider could not be reached. Please try again later.")
      : new AppError(502, "The payment provider could not complete the request. Please try again later.");
  }
}

/** The fields we keep from a Stripe subscription, in the shape of the API version the SDK pins. */
export function subscriptionFacts(subscription: Stripe.Subscription) {
  const item = subscription.items.data[0];
  return {
    stripeSubscriptionId: subscription.id,
    customerId: typeof subscription.customer === "string" ? subscription.customer : subscription.customer.id,
    status: subscription.status,
    priceId: item?.price.id ?? null,
    isAnnual: item?.price.recurring?.interval === "year",
    // Current API versions keep the period on the subscription items.
    currentPeriodStart: item ? new Date(item.current_period_start * 1000) : null,
    currentPeriodEnd: item ? new Date(item.current_period_end * 1000) : null,
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
    itemId: item?.id ?? null,
    metadataUserId: Number(subscription.metadata?.userId) || null,
    // The workspace the bill is for (docs/decisions/0063); none on subscriptions from before workspaces.
    metadataWorkspaceId: Number(subscription.metadata?.workspaceId) || null,
  };
}

export type SubscriptionFacts = ReturnType<typeof subscriptionFacts>;
