// Page guards: the server knows who is asking, so a guarded page redirects at once, with a flash toast.
import { setFlash } from "../http/flash.ts";
import type { PageViewer } from "./viewer.ts";

type Cookie = Parameters<typeof setFlash>[0];
export type Guarded = { viewer: PageViewer; redirectTo?: undefined } | { viewer?: undefined; redirectTo: string };

/** Signed in, else to / with 'Authentication required'. */
export function signedIn(viewer: PageViewer | null, cookie: Cookie): Guarded {
  if (viewer) return { viewer };
  setFlash(cookie, {
    title: "Authentication required",
    description: "Please sign in to access this page",
    variant: "destructive",
  });
  return { redirectTo: "/" };
}

/** Signed in with a valid subscription, else to /pricing with 'Subscription required'. */
export function subscribed(viewer: PageViewer | null, cookie: Cookie): Guarded {
  const guarded = signedIn(viewer, cookie);
  if (!guarded.viewer || guarded.viewer.entitlement.active) return guarded;
  setFlash(cookie, {
    title: "Subscription required",
    description: "You need an active subscription to access this feature",
    variant: "destructive",
  });
  return { redirectTo: "/pricing" };
}
