// What a user may do now, from their subscription (valid means status active and, when cancelled at
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

/** The user's newest subscription row. */
export async function latestSubscription(db: Db, userId: number): Promise<Subscription | null> {
  const { subscriptions } = tablesOf(db);
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.updatedAt), desc(subscriptions.id))
    .limit(1);
  return row ?? null;
}

/** What a subscription entitles to now: its plan while valid, else the basic plan's limits. */
function entitlementOf(subscription: Subscription | null, now: number): Entitlement {
  const active = isSubscriptionValid(subscription, now);
  const plan = (active && subscription && planById(subscription.planId)) || planById("basic")!;
  return { active, plan, subscription };
}

export async function entitlementFor(
  db: Db,
  billingEnabled: boolean,
  userId: number,
  now: number,
): Promise<Entitlement> {
  if (!billingEnabled) return { active: true, plan: planById("enterprise")!, subscription: null };
  return entitlementOf(await latestSubscription(db, userId), now);
}

/** A workspace's entitlement, from its newest subscription (its seats: src/members/). */
export async function workspaceEntitlement(
  db: Db,
  billingEnabled: boolean,
  workspaceId: number,
  now: number,
): Promise<Entitlement> {
  if (!billingEnabled) return { active: true, plan: planById("enterprise")!, subscription: null };
  const { subscriptions } = tablesOf(db);
  const [subscription] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.workspaceId, workspaceId))
    .orderBy(desc(subscriptions.updatedAt), desc(subscriptions.id))
    .limit(1);
  return entitlementOf(subscription ?? null, now);
}
