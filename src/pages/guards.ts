// Who is asking a page (`pageViewer`, null when signed out: once per request, src/pages/viewer.ts), and the page
// guard declared on the route (docs/decisions/0056): `{ page: "signedIn" }` or `{ page: "subscribed" }`. The server
// knows who is asking, so a guarded page redirects at once, with a flash toast; the handler gets `pageViewer`, never null.
import { Elysia } from "elysia";
import { authPlugin } from "../auth/plugin.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import { setFlash } from "../http/flash.ts";
import { resolvePageViewer } from "./viewer.ts";

/** signedIn: else to / with 'Authentication required'; subscribed: also a valid subscription, else to /pricing. */
export type PageGuard = "signedIn" | "subscribed";

const AUTHENTICATION_REQUIRED = {
  to: "/",
  flash: { title: "Authentication required", description: "Please sign in to access this page" },
};
const SUBSCRIPTION_REQUIRED = {
  to: "/pricing",
  flash: { title: "Subscription required", description: "You need an active subscription to access this feature" },
};

/** `billingEnabled`: whether Stripe is configured (without it everyone has enterprise limits). */
export const pageGuards = (session: SessionDeps, billingEnabled: boolean) =>
  new Elysia({ name: "page-guards" })
    .use(authPlugin(session))
    .resolve({ as: "scoped" }, async ({ viewer }) => ({
      pageViewer: await resolvePageViewer(session.db, billingEnabled, viewer, session.clock.now()),
    }))
    .macro({
      page: (guard: PageGuard) => ({
        resolve: ({ pageViewer, cookie, set, status }) => {
          if (pageViewer && (guard === "signedIn" || pageViewer.entitlement.active)) return { pageViewer };
          const refusal = pageViewer ? SUBSCRIPTION_REQUIRED : AUTHENTICATION_REQUIRED;
          setFlash(cookie, { ...refusal.flash, variant: "destructive" });
          set.headers.location = refusal.to;
          return status(302, "");
        },
      }),
    });
