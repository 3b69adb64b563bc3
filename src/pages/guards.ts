// Page guards: the server knows who is asking, so a guarded page redirects at once, with a flash toast.
import type { Viewer } from "../auth/plugin.ts";
import { entitlementFor } from "../billing/entitlement.ts";
import type { AppContext } from "../context.ts";
import type { User } from "../db/tables.ts";
import { setFlash } from "../http/flash.ts";

type Cookie = Parameters<typeof setFlash>[0];
export type Guarded = { user: User; redirectTo?: undefined } | { user?: undefined; redirectTo: string };

/** Signed in, else to / with 'Authentication required'. */
export function signedIn(viewer: Viewer | null, cookie: Cookie): Guarded {
  if (viewer) return { user: viewer.user };
  setFlash(cookie, { title: "Authentication required", description: "Please sign in to access this page", variant: "destructive" });
  return { redirectTo: "/" };
}

/** Signed in with a valid subscription, else to /pricing with 'Subscription required'. */
export async function subscribed(ctx: AppContext, viewer: Viewer | null, cookie: Cookie): Promise<Guarded> {
  const guarded = signedIn(viewer, cookie);
  if (!guarded.user) return guarded;
  if ((await entitlementFor(ctx.db, ctx.config.stripe !== null, guarded.user.id)).active) return guarded;
  setFlash(cookie, { title: "Subscription required", description: "You need an active subscription to access this feature", variant: "destructive" });
  return { redirectTo: "/pricing" };
}
