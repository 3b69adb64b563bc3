// /api/plans, /api/subscriptions*, /api/stripe/webhook, /api/business/info and /api/vat*. (/payment-success is a
// page: src/pages/routes.ts.)
import { Elysia } from "elysia";
import { routeGuards } from "../auth/guards.ts";
import { parseInput } from "../http/validate.ts";
import type { Services } from "../services.ts";
import { publicPlans } from "./plans.ts";
import {
  activeSubscription,
  cancelSubscription,
  CheckoutInput,
  handleWebhook,
  reactivateSubscription,
  removeVatExemption,
  subscribe,
  validateVatNumber,
} from "./service.ts";
import { mappingStripeErrors } from "./stripe.ts";
import { VatInput } from "./vat.ts";

export function billingRoutes(services: Services) {
  const deps = services.billing;
  return (
    new Elysia()
      .use(routeGuards(services))
      .get("/api/plans", () => publicPlans())
      .get("/api/business/info", () => ({ countryCode: services.config.businessCountry }))
      .get("/api/subscriptions/active", ({ user }) => activeSubscription(deps, user), { user: true })
      .post(
        "/api/subscriptions",
        ({ user, body: { planId, vatInfo } }) =>
          mappingStripeErrors(() =>
            // The VAT details are judged apart, so that their messages name their own fields.
            subscribe(deps, user, { planId, vatInfo: vatInfo ? parseInput(VatInput, vatInfo) : null }),
          ),
        { permission: "billing.manage", body: CheckoutInput },
      )
      .post(
        "/api/subscriptions/cancel",
        async ({ user }) => {
          await mappingStripeErrors(() => cancelSubscription(deps, user));
          return activeSubscription(deps, user);
        },
        { permission: "billing.manage" },
      )
      .post(
        "/api/subscriptions/reactivate",
        async ({ user }) => {
          await mappingStripeErrors(() => reactivateSubscription(deps, user));
          return activeSubscription(deps, user);
        },
        { permission: "billing.manage" },
      )
      // The signature covers the exact bytes Stripe sent: read them unparsed.
      .post(
        "/api/stripe/webhook",
        async ({ request }) => {
          const rawBody = await request.text();
          return mappingStripeErrors(() => handleWebhook(deps, rawBody, request.headers.get("stripe-signature")));
        },
        { parse: "none" },
      )
      .post(
        "/api/vat/validate",
        async ({ viewer, body, ip }) => {
          await services.authLimiter.hit(ip);
          return validateVatNumber(deps, viewer?.user ?? null, body);
        },
        { body: VatInput },
      )
      .delete(
        "/api/vat",
        async ({ user, set }) => {
          await removeVatExemption(deps, user);
          set.status = 204;
          return null;
        },
        { permission: "billing.manage" },
      )
  );
}
