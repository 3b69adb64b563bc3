// GET /api/subscriptions/active: the user's subscription as the API shows it (self-hosted: always active).
import type { User } from "../db/tables.ts";
import type { BillingDeps } from "./deps.ts";
import { entitlementFor } from "../plans/entitlement.ts";
import { planById } from "../plans/plans.ts";

/** GET /api/subscriptions/active */
export async function activeSubscription(deps: BillingDeps, user: User) {
  const { active, plan, subscription } = await entitlementFor(
    deps.database.db,
    deps.config.stripe !== null,
    user.id,
    deps.clock.now(),
  );
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
