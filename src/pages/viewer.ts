// What the top bar shows of the signed-in user.
import { entitlementFor } from "../billing/entitlement.ts";
import type { Db } from "../db/connection.ts";
import type { User } from "../db/tables.ts";
import type { AvatarMenuProps } from "../../islands/AvatarMenu.tsx";
import { longDate } from "../client/format.ts";

export function initials(user: Pick<User, "firstName" | "lastName">): string {
  const letters = [user.firstName, user.lastName].map((name) => name?.trim()[0] ?? "").join("");
  return letters ? letters.toUpperCase() : "?";
}

export function displayName(user: Pick<User, "firstName" | "lastName" | "email">): string {
  return [user.firstName, user.lastName].filter((n) => n?.trim()).join(" ") || user.email;
}

export async function viewerProps(db: Db, billingEnabled: boolean, user: User): Promise<AvatarMenuProps> {
  const { active, plan, subscription } = await entitlementFor(db, billingEnabled, user.id);
  const statusLabel = !billingEnabled
    ? "Self-hosted"
    : subscription?.cancelAtPeriodEnd && subscription.currentPeriodEnd
      ? `Canceled (ends on ${longDate(subscription.currentPeriodEnd)})`
      : "Active";
  return {
    initials: initials(user),
    profileImageUrl: user.profileImageUrl,
    displayName: displayName(user),
    subscription: active ? { planName: plan.name, statusLabel } : null,
    hasValidSubscription: active,
  };
}
