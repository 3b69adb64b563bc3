// /api/plans, /api/subscriptions*, /api/stripe/webhook, /api/business/info, /api/vat*, and /payment-success.
import { Elysia } from "elysia";
import { createElement } from "react";
import { authPlugin, requireUser } from "../auth/plugin.ts";
import type { AppContext } from "../context.ts";
import { signedIn } from "../pages/guards.ts";
import { PaymentSuccessPage } from "../pages/payment-success.tsx";
import { publicPlans } from "./plans.ts";
import { activeSubscription, cancelSubscription, confirmCheckout, handleWebhook, reactivateSubscription, removeVatExemption, subscribe, validateVatNumber, type BillingDeps } from "./service.ts";
import { createStripe } from "./stripe.ts";
import { validateVat } from "./vat.ts";

export function billingRoutes(ctx: AppContext) {
  const deps: BillingDeps = {
    db: ctx.db,
    database: ctx.database,
    config: ctx.config,
    stripe: ctx.config.stripe ? createStripe(ctx.config.stripe) : null,
    checkVat: (input) => validateVat(ctx.config, input),
  };
  return (
    new Elysia()
      .use(authPlugin(ctx))
      .get("/api/plans", () => publicPlans())
      .get("/api/business/info", () => ({ countryCode: ctx.config.businessCountry }))
      .get("/api/subscriptions/active", ({ viewer }) => activeSubscription(deps, requireUser(viewer)))
      .post("/api/subscriptions", ({ viewer, body }) => subscribe(deps, requireUser(viewer), body))
      .post("/api/subscriptions/cancel", async ({ viewer }) => {
        await cancelSubscription(deps, requireUser(viewer));
        return activeSubscription(deps, requireUser(viewer));
      })
      .post("/api/subscriptions/reactivate", async ({ viewer }) => {
        await reactivateSubscription(deps, requireUser(viewer));
        return activeSubscription(deps, requireUser(viewer));
      })
      // The signature covers the exact bytes Stripe sent: read them unparsed.
      .post("/api/stripe/webhook", async ({ request }) => handleWebhook(deps, await request.text(), request.headers.get("stripe-signature")), { parse: "none" })
      .post("/api/vat/validate", async ({ viewer, body, ip }) => {
        await ctx.authLimiter.hit(ip);
        return validateVatNumber(deps, viewer?.user ?? null, body);
      })
      .delete("/api/vat", async ({ viewer, set }) => {
        await removeVatExemption(deps, requireUser(viewer));
        set.status = 204;
        return null;
      })
      .get("/payment-success", async ({ viewer, query, cookie, redirect }) => {
        const guarded = signedIn(viewer, cookie);
        if (!guarded.user) return redirect(guarded.redirectTo, 302);
        const sessionId = typeof query.session_id === "string" ? query.session_id : null;
        if (sessionId && deps.stripe) {
          await confirmCheckout(deps, guarded.user, sessionId).catch((error) => console.error("payment-success: could not confirm the checkout:", error?.message ?? error));
        }
        return ctx.pages.response(createElement(PaymentSuccessPage), { title: "Payment successful", user: guarded.user });
      })
  );
}
