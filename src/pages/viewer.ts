// The signed-in viewer as pages see it: resolved once per request (resolvePageViewer, in the page routes' resolve
// step, src/pages/routes.ts) and handed to guards, page data and the layout, so a render asks for the entitlement once.
import { hasConsent } from "../auth/users.ts";
import { entitlementFor, type Entitlement } from "../plans/entitlement.ts";
import type { Db } from "../db/ports.ts";
import type { User } from "../db/tables.ts";
import type { Acting } from "../workspaces/acting.ts";
import type { AvatarMenuProps } from "../../islands/AvatarMenu.tsx";
import { longDate } from "../client/format.ts";

/** Who asks, in which workspace and as what (src/auth/plugin.ts), and that workspace's entitlement. */
export type PageViewer = Acting & { entitlement: Entitlement; needsConsent: boolean; billingEnabled: boolean };

export async function resolvePageViewer(
  db: Db,
  billingEnabled: boolean,
  acting: Acting | null,
  now: number,
): Promise<PageViewer | null> {
  if (!acting) return null;
  const { user, workspace, role } = acting;
  const [entitlement, consented] = await Promise.all([
    entitlementFor(db, billingEnabled, workspace.id, now),
    hasConsent(db, user.id),
  ]);
  return { user, workspace, role, entitlement, needsConsent: !consented, billingEnabled };
}

export function initials(user: Pick<User, "firstName" | "lastName">): string {
  const letters = [user.firstName, user.lastName].map((name) => name?.trim()[0] ?? "").join("");
  return letters ? letters.toUpperCase() : "?";
}

export function displayName(user: Pick<User, "firstName" | "lastName" | "email">): string {
  return [user.firstName, user.lastName].filter((n) => n?.trim()).join(" ") || user.email;
}

export function viewerProps({
  user,
  entitlement: { active, plan, subscription },
  billingEnabled,
}: PageViewer): AvatarMenuProps {
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
