// The public pages: /, /pricing, /about, /privacy, /terms, /contact.
import { Elysia } from "elysia";
import { createElement, type FunctionComponent } from "react";
import { authPlugin, type Viewer } from "../auth/plugin.ts";
import { entitlementFor } from "../billing/entitlement.ts";
import { PLANS } from "../billing/plans.ts";
import type { AppContext } from "../context.ts";
import { takeFlash } from "../http/flash.ts";
import type { PlanListProps } from "./plan-list.tsx";
import { DashboardPage } from "./dashboard.tsx";
import { subscribed } from "./guards.ts";
import { ContactPage, LandingPage, PlaceholderPage, PricingPage } from "./public.tsx";

type Cookie = Parameters<typeof takeFlash>[0];

export function pageRoutes(ctx: AppContext) {
  const billingEnabled = ctx.config.stripe !== null;
  /** A page for whoever is asking, with the flash toast left by a redirect, if any. */
  const page = <P extends object>(component: FunctionComponent<P>, props: P, title: string, viewer: Viewer | null, cookie: Cookie) =>
    ctx.pages.response(createElement(component, props), { title, user: viewer?.user ?? null, flash: takeFlash(cookie) });

  const plansFor = (viewer: Viewer | null): PlanListProps => {
    if (!viewer) return { plans: PLANS, signedIn: false, currentPlan: null };
    const { active, plan } = entitlementFor(ctx.db, billingEnabled, viewer.user.id);
    return { plans: PLANS, signedIn: true, currentPlan: active ? plan : null };
  };

  return new Elysia()
    .use(authPlugin(ctx))
    .get("/", ({ viewer, cookie }) => page(LandingPage, plansFor(viewer), "Custom link previews", viewer, cookie))
    .get("/pricing", ({ viewer, cookie }) => page(PricingPage, plansFor(viewer), "Pricing", viewer, cookie))
    .get("/about", ({ viewer, cookie }) => page(PlaceholderPage, { title: "About" }, "About", viewer, cookie))
    .get("/privacy", ({ viewer, cookie }) => page(PlaceholderPage, { title: "Privacy" }, "Privacy", viewer, cookie))
    .get("/terms", ({ viewer, cookie }) => page(PlaceholderPage, { title: "Terms" }, "Terms", viewer, cookie))
    .get("/admin", ({ viewer, cookie, redirect }) => {
      const guarded = subscribed(ctx, viewer, cookie);
      if (!guarded.user) return redirect(guarded.redirectTo, 302);
      return page(DashboardPage, {}, "Dashboard", viewer, cookie);
    })
    .get("/contact", ({ viewer, cookie }) =>
      page(ContactPage, { contactFormUrl: ctx.config.contactFormUrl, socialUrl: ctx.config.socialUrl }, "Contact", viewer, cookie),
    );
}
