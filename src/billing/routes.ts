// /api/plans, /api/subscriptions*, /api/stripe/webhook, /api/business/info and /api/vat*. (/payment-success is a
// page: src/pages/routes.ts.)
import { Elysia } from "elysia";
import { z } from "zod";
import { asJson } from "../api-docs/json.ts";
import { routeGuards, viewerMay } from "../auth/guards.ts";
import { parseInput } from "../http/validate.ts";
import type { Workspace } from "../workspaces/acting.ts";
import type { SessionDeps } from "../auth/session-deps.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import { publicPlans } from "../plans/plans.ts";
import { activeSubscription } from "./active-subscription.ts";
import type { BillingDeps } from "./deps.ts";
import { cancelSubscription, reactivateSubscription } from "./cancel-at-period-end.ts";
import { deleteVatExemption } from "./delete-vat-exemption.ts";
import { handleWebhook } from "./stripe-webhook.ts";
import { CheckoutInput, subscribe } from "./subscribe.ts";
import { validateVatNumber } from "./validate-vat-number.ts";
import { mappingStripeErrors } from "./stripe.ts";
import { VatInput } from "./vat.ts";
import {
  ActiveSubscriptionSchema,
  BusinessInfoSchema,
  CheckoutSchema,
  PlanSchema,
  VatCheckSchema,
  WebhookAnswerSchema,
} from "./wire.ts";

const StripeEvent = z
  .object({ id: z.string(), type: z.string() })
  .loose()
  .describe("A Stripe event, signed in the Stripe-Signature header");
/** What a call that reaches Stripe may answer besides its own: 409 when billing is off on this server. */
const STRIPE_FAILURES = [403, 404, 409, 502, 503];

/** What /api/billing/*, /api/business/info and the Stripe webhook need. */
export type BillingRouteDeps = {
  billing: BillingDeps;
  /** The sign-in limiter, shared with the VAT number check. */
  authLimiter: RateLimiter;
  session: SessionDeps;
};

export function billingRoutes({ billing: deps, authLimiter, session }: BillingRouteDeps) {
  const subscription = async (workspace: Workspace) => asJson(await activeSubscription(deps, workspace));
  return (
    new Elysia()
      .use(routeGuards(session))
      .get("/api/plans", () => publicPlans(), {
        response: { 200: z.array(PlanSchema) },
        doc: { id: "listPlans", tag: "Billing", summary: "The plans and their prices", answers: { 200: "The plans" } },
      })
      .get("/api/business/info", () => ({ countryCode: deps.config.businessCountry }), {
        response: { 200: BusinessInfoSchema },
        doc: {
          id: "businessInfo",
          tag: "Billing",
          summary: "Where the seller is established (for VAT)",
          answers: { 200: { description: "The country", example: { countryCode: "PT" } } },
        },
      })
      .get("/api/subscriptions/active", ({ workspace }) => subscription(workspace), {
        user: true,
        response: { 200: ActiveSubscriptionSchema },
        doc: {
          id: "activeSubscription",
          tag: "Billing",
          summary: "Your subscription",
          answers: { 200: "The subscription, if any" },
        },
      })
      .post(
        "/api/subscriptions",
        ({ acting, body: { planId, vatInfo } }) =>
          mappingStripeErrors(deps.log, () =>
            // The VAT details are judged apart, so that their messages name their own fields.
            subscribe(deps, acting, { planId, vatInfo: vatInfo ? parseInput(VatInput, vatInfo) : null }),
          ),
        {
          permission: "billing.write",
          body: CheckoutInput,
          response: { 200: CheckoutSchema },
          doc: {
            id: "subscribe",
            tag: "Billing",
            summary: "Subscribe, or change plan",
            body: { example: { planId: "pro" } },
            errors: [400, 403, 409, 502, 503],
            answers: { 200: "Where to go next" },
          },
        },
      )
      .post(
        "/api/subscriptions/cancel",
        async ({ workspace }) => {
          await mappingStripeErrors(deps.log, () => cancelSubscription(deps, workspace));
          return subscription(workspace);
        },
        {
          permission: "billing.write",
          response: { 200: ActiveSubscriptionSchema },
          doc: {
            id: "cancelSubscription",
            tag: "Billing",
            summary: "Cancel at the end of the period",
            errors: STRIPE_FAILURES,
            answers: { 200: "The subscription" },
          },
        },
      )
      .post(
        "/api/subscriptions/reactivate",
        async ({ workspace }) => {
          await mappingStripeErrors(deps.log, () => reactivateSubscription(deps, workspace));
          return subscription(workspace);
        },
        {
          permission: "billing.write",
          response: { 200: ActiveSubscriptionSchema },
          doc: {
            id: "reactivateSubscription",
            tag: "Billing",
            summary: "Keep a cancelled subscription",
            errors: STRIPE_FAILURES,
            answers: { 200: "The subscription" },
          },
        },
      )
      // The signature covers the exact bytes Stripe sent: read them unparsed.
      .post(
        "/api/stripe/webhook",
        async ({ request }) => {
          const rawBody = await request.text();
          return mappingStripeErrors(deps.log, () =>
            handleWebhook(deps, rawBody, request.headers.get("stripe-signature")),
          );
        },
        {
          parse: "none",
          response: { 200: WebhookAnswerSchema },
          doc: {
            id: "stripeWebhook",
            tag: "Billing",
            summary: "Stripe's events (Stripe calls it)",
            body: { readByHandler: StripeEvent },
            errors: [400, 409],
            answers: { 200: "Received" },
          },
        },
      )
      .post(
        "/api/vat/validate",
        ({ viewer, body }) =>
          validateVatNumber(deps, viewerMay(viewer, "billing.write") ? viewer.workspace : null, body),
        {
          // Every check counts, well-formed or not: the limit runs before the schema judges the body.
          transform: ({ ip }) => authLimiter.hit(ip),
          body: VatInput,
          response: { 200: VatCheckSchema },
          doc: {
            id: "validateVat",
            tag: "Billing",
            summary: "Check an EU VAT number with VIES",
            description: "Signed in, a valid number is kept for checkout.",
            signIn: "optional",
            body: { example: { countryCode: "DE", vatNumber: "DE123456789" } },
            errors: [400, 403, 429, 503],
            answers: { 200: "The answer" },
          },
        },
      )
      .delete(
        "/api/vat",
        async ({ workspace, set }) => {
          await deleteVatExemption(deps, workspace);
          set.status = 204;
          return null;
        },
        {
          permission: "billing.write",
          doc: {
            id: "removeVat",
            tag: "Billing",
            summary: "Forget your VAT number",
            errors: [403],
            answers: { 204: "Done; no body" },
          },
        },
      )
  );
}
