// /api/plans, /api/subscriptions*, /api/stripe/webhook, /api/business/info and /api/vat*. (/payment-success is a
// page: src/pages/routes.ts.)
import { Elysia } from "elysia";
import { authPlugin, requireUser } from "../auth/plugin.ts";
import { parseInput } from "../http/validate.ts";
import type { Services } from "../services.ts";
import { publicPlans } from "../plans/plans.ts";
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
      .use(authPlugin(services))
      .get("/api/plans", () => publicPlans())
      .get("/api/business/info", () => ({ countryCode: services.config.businessCountry }))
      .get("/api/subscriptions/active", ({ viewer }) => activeSubscription(deps, requireUser(viewer)))
      .post("/api/subscriptions", ({ viewer, body }) => {
        const user = requireUser(viewer);
        const { planId, vatInfo } = parseInput(CheckoutInput, body);
        return mappingStripeErrors(deps.log, () =>
          subscribe(deps, user, { planId, vatInfo: vatInfo ? parseInput(VatInput, vatInfo) : null }),
        );
      })
      .post("/api/subscriptions/cancel", async ({ viewer }) => {
        await mappingStripeErrors(deps.log, () => cancelSubscription(deps, requireUser(viewer)));
        return activeSubscription(deps, requireUser(viewer));
      })
      .post("/api/subscriptions/reactivate", async ({ viewer }) => {
        await mappingStripeErrors(deps.log, () => reactivateSubscription(deps, requireUser(viewer)));
        return activeSubscription(deps, requireUser(viewer));
      })
      // The signature covers the exact bytes Stripe sent: read them unparsed.
      .post(
        "/api/stripe/webhook",
        async ({ request }) => {
          const rawBody = await request.text();
          return mappingStripeErrors(deps.log, () =>
            handleWebhook(deps, rawBody, request.headers.get("stripe-signature")),
          );
        },
        { parse: "none" },
      )
      .post("/api/vat/validate", async ({ viewer, body, ip }) => {
        await services.authLimiter.hit(ip);
        return validateVatNumber(deps, viewer?.user ?? null, parseInput(VatInput, body));
      })
      .delete("/api/vat", async ({ viewer, set }) => {
        await removeVatExemption(deps, requireUser(viewer));
        set.status = 204;
        return null;
      })
  );
}
