// POST /api/stripe/webhook: Stripe's events, verified, each applied once, in any order.
import { and, eq, isNull, or } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { announceDomainChange } from "../domains/deps.ts";
import { badRequest } from "../http/errors.ts";
import { stripeOf, type BillingDeps } from "./deps.ts";
import { storeSubscription } from "./store-subscription.ts";

async function recordPayment(db: Db, invoice: Stripe.Invoice, status: "paid" | "failed"): Promise<void> {
  const { payments, workspaces } = tablesOf(db);
  const customerId = typeof invoice.customer === "string" ? invoice.customer : invoice.customer?.id;
  // The workspace whose customer was invoiced (docs/decisions/0069).
  const [owner] = customerId
    ? await db
        .select({ id: workspaces.id, personalUserId: workspaces.personalUserId })
        .from(workspaces)
        .where(eq(workspaces.stripeCustomerId, customerId))
    : [];
  if (!owner) return;
  const intent = invoice.payments?.data?.[0]?.payment?.payment_intent;
  const paymentIntentId = (typeof intent === "string" ? intent : intent?.id) ?? `invoice:${invoice.id}`;
  const values = {
    userId: owner.personalUserId,
    workspaceId: owner.id,
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
  const { stripeEvents, workspaces } = tablesOf(deps.database.db);
  const { stripe, settings } = stripeOf(deps);
  let event: Stripe.Event;
  try {
    event = await stripe.webhooks.constructEventAsync(rawBody, signature ?? "", settings.webhookSecret);
  } catch {
    throw badRequest("Invalid Stripe signature");
  }
  if (
    (await deps.database.db.select({ id: stripeEvents.id }).from(stripeEvents).where(eq(stripeEvents.id, event.id)))
      .length > 0
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
        // The workspace the checkout named; from before workspaces, its user's personal one.
        const workspaceId = Number(event.data.object.metadata?.workspaceId);
        const userId = Number(event.data.object.client_reference_id);
        if (customerId && (workspaceId || userId)) {
          await tx
            .update(workspaces)
            .set({ stripeCustomerId: customerId })
            .where(
              and(
                workspaceId ? eq(workspaces.id, workspaceId) : eq(workspaces.personalUserId, userId),
                or(eq(workspaces.stripeCustomerId, customerId), isNull(workspaces.stripeCustomerId)),
              ),
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
