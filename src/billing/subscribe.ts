// POST /api/subscriptions: a Checkout URL, or a plan change on the subscription the user already has.
import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { z } from "zod";
import { tablesOf, type User } from "../db/tables.ts";
import { AppError, badRequest, conflict } from "../http/errors.ts";
import { stripeOf, type BillingDeps } from "./deps.ts";
import { isSubscriptionValid, latestSubscription } from "../plans/entitlement.ts";
import { stripePriceFor, type PlanId } from "../plans/plans.ts";
import { nowSeconds, recordSubscription } from "./store-subscription.ts";
import { subscriptionFacts } from "./stripe.ts";
import { viesCountry, type VatRequest } from "./vat.ts";
import { storeExemption } from "./validate-vat-number.ts";
import type { Acting, Workspace } from "../workspaces/acting.ts";

export const CheckoutInput = z.object(
  {
    planId: z.enum(["basic", "pro", "enterprise"], "Choose a plan: basic, pro or enterprise"),
    vatInfo: z.object({ countryCode: z.string(), vatNumber: z.string(), companyName: z.string().nullish() }).nullish(),
  },
  "Choose a plan: basic, pro or enterprise",
);

/** What a checkout asks for, parsed by the route (CheckoutInput, then VatInput for the VAT details). */
export type CheckoutRequest = { planId: PlanId; vatInfo: VatRequest | null };

/** The workspace's stored exemption, checked again with VIES when the checkout names another number. */
async function exemptionFor(deps: BillingDeps, workspace: Workspace, wanted: VatRequest | null): Promise<Workspace> {
  if (!wanted) return workspace;
  if (
    workspace.vatCountryCode === wanted.countryCode &&
    workspace.vatNumber &&
    wanted.vatNumber.endsWith(workspace.vatNumber)
  )
    return workspace;
  const check = await deps.checkVat(wanted);
  if (!check.isValid)
    throw badRequest("Invalid VAT number: not registered in the VIES system or could not be verified", "vatInfo");
  return storeExemption(deps, workspace, check);
}

/** The workspace's Stripe customer (docs/decisions/0069), created at its first checkout with the payer's e-mail. */
async function ensureCustomer(deps: BillingDeps, stripe: Stripe, user: User, workspace: Workspace): Promise<string> {
  const { workspaces } = tablesOf(deps.database.db);
  const exempt = Boolean(workspace.vatCountryCode && workspace.vatNumber);
  const taxExempt = exempt ? ("reverse" as const) : ("none" as const);
  let customerId = workspace.stripeCustomerId;
  if (!customerId) {
    const personal = workspace.personalUserId === user.id;
    const name = personal ? [user.firstName, user.lastName].filter(Boolean).join(" ") || undefined : workspace.name;
    const customer = await stripe.customers.create(
      {
        email: user.email,
        name,
        metadata: { userId: String(user.id), workspaceId: String(workspace.id) },
        tax_exempt: taxExempt,
      },
      { idempotencyKey: personal ? `customer-${user.id}` : `customer-workspace-${workspace.id}` },
    );
    customerId = customer.id;
    await deps.database.db
      .update(workspaces)
      .set({ stripeCustomerId: customerId })
      .where(eq(workspaces.id, workspace.id));
  } else {
    await stripe.customers.update(customerId, { tax_exempt: taxExempt });
  }
  if (exempt) {
    await stripe.customers
      .createTaxId(customerId, {
        type: "eu_vat",
        value: `${viesCountry(workspace.vatCountryCode!)}${workspace.vatNumber}`,
      })
      .catch((error: unknown) => {
        // Already attached from an earlier checkout: fine.
        if ((error as { code?: string }).code !== "resource_already_exists") throw error;
      });
  }
  return customerId;
}

/** POST /api/subscriptions: a Checkout URL, or a plan change on the subscription the workspace already has. */
export async function subscribe(
  deps: BillingDeps,
  { user, workspace }: Acting,
  { planId, vatInfo }: CheckoutRequest,
): Promise<{ url: string }> {
  const { stripe, settings } = stripeOf(deps);
  const price = stripePriceFor(settings, planId);
  // Who pays and for which workspace: store-subscription.ts records the subscription as that workspace's.
  const billed = { userId: String(user.id), workspaceId: String(workspace.id) };
  const current = await latestSubscription(deps.database.db, workspace.id);

  if (current && isSubscriptionValid(current, deps.clock.now())) {
    if (current.planId === planId && !current.cancelAtPeriodEnd) throw conflict("You are already on this plan");
    const live = await stripe.subscriptions.retrieve(current.stripeSubscriptionId);
    const itemId = subscriptionFacts(live).itemId;
    if (!itemId) throw new AppError(502, "Stripe returned a subscription without items");
    const updated = await stripe.subscriptions.update(current.stripeSubscriptionId, {
      items: [{ id: itemId, price }],
      proration_behavior: "create_prorations",
      cancel_at_period_end: false,
      metadata: { ...billed, planId },
    });
    await recordSubscription(deps, updated, nowSeconds(deps));
    return { url: "/payment-success" };
  }

  const customer = await ensureCustomer(deps, stripe, user, await exemptionFor(deps, workspace, vatInfo));
  const base = deps.config.publicUrl;
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer,
    client_reference_id: String(user.id),
    line_items: [{ price, quantity: 1 }],
    success_url: `${base}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${base}/pricing`,
    metadata: { ...billed, planId },
    subscription_data: { metadata: { ...billed, planId } },
  });
  if (!session.url) throw new AppError(502, "Stripe did not return a checkout page");
  return { url: session.url };
}
