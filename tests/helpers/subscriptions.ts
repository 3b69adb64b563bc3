// An active subscription that exists both in the fake Stripe and in our database, for tests that cancel,
// reactivate or change plans without going through checkout.
import type { FakeStripe } from "../fakes/stripe.ts";
import { FAKE_PRICES } from "../fakes/stripe.ts";
import type { TestServer } from "./server.ts";

export async function subscribeInFakeStripe(
  server: TestServer,
  stripe: FakeStripe,
  userId: number,
  plan: "basic" | "pro" | "enterprise",
  { canceled = false } = {},
): Promise<string> {
  const customer = `cus_seeded_${userId}`;
  await server.sql.run("UPDATE workspaces SET stripe_customer_id = ? WHERE personal_user_id = ?", customer, userId);
  const id = `sub_seeded_${crypto.randomUUID().slice(0, 8)}`;
  const now = Math.floor(Date.now() / 1000);
  stripe.subscriptions.set(id, {
    id,
    object: "subscription",
    customer,
    status: "active",
    cancel_at_period_end: canceled,
    created: now,
    metadata: { userId: String(userId) },
    items: {
      object: "list",
      data: [
        {
          id: `si_${id}`,
          object: "subscription_item",
          quantity: 1,
          current_period_start: now,
          current_period_end: now + 30 * 86400,
          price: { id: FAKE_PRICES[plan], object: "price", recurring: { interval: "month" } },
        },
      ],
    },
  });
  await server.sql.run(
    "INSERT INTO subscriptions (user_id, workspace_id, stripe_subscription_id, stripe_price_id, status, plan_id, current_period_start, current_period_end, cancel_at_period_end) VALUES (?, (SELECT id FROM workspaces WHERE personal_user_id = ?), ?, ?, 'active', ?, ?, ?, ?)",
    userId,
    userId,
    id,
    FAKE_PRICES[plan],
    plan,
    new Date(),
    new Date(Date.now() + 30 * 86_400_000),
    canceled,
  );
  return id;
}
