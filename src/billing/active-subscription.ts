// GET /api/subscriptions/active: the current workspace's subscription as the API shows it (self-hosted: always active).
import type { Workspace } from "../workspaces/acting.ts";
import type { BillingDeps } from "./deps.ts";
import { entitlementFor } from "../plans/entitlement.ts";
import { planById } from "../plans/plans.ts";

/** GET /api/subscriptions/active */
export async function activeSubscription(deps: BillingDeps, workspace: Workspace) {
  const { active, plan, subscription } = await entitlementFor(
    deps.database.db,
    deps.config.stripe !== null,
    workspace.id,
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
