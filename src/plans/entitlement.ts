// What a workspace may do now, from its subscription (one bill per workspace: docs/decisions/0063) (valid means status active and, when cancelled at
// period end, not past that end). With billing off (self-hosting) everyone has enterprise limits.
import { desc, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Subscription } from "../db/tables.ts";
import { planById, type Plan } from "./plans.ts";

export type Entitlement = { active: boolean; plan: Plan; subscription: Subscription | null };

export function isSubscriptionValid(subscription: Subscription | null | undefined, now: number): boolean {
  if (!subscription || subscription.status !== "active") return false;
  if (subscription.cancelAtPeriodEnd && subscription.currentPeriodEnd && now > subscription.currentPeriodEnd.getTime())
    return false;
  return true;
}

/** The workspace's newest subscription row. */
export async function latestSubscription(db: Db, workspaceId: number): Promise<Subscription | null> {
  const { subscriptions } = tablesOf(db);
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.workspaceId, workspaceId))
    .orderBy(desc(subscriptions.updatedAt), desc(subscriptions.id))
    .limit(1);
  return row ?? null;
}

export async function entitlementFor(
  db: Db,
  billingEnabled: boolean,
  workspaceId: number,
  now: number,
): Promise<Entitlement> {
  if (!billingEnabled) return { active: true, plan: planById("enterprise")!, subscription: null };
  const subscription = await latestSubscription(db, workspaceId);
  const active = isSubscriptionValid(subscription, now);
  // Without a valid subscription the basic plan's limits are shown.
  const plan = (active && subscription && planById(subscription.planId)) || planById("basic")!;
  return { active, plan, subscription };
}
