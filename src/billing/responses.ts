// What the billing API answers, as zod schemas (the OpenAPI document's source), checked against the services by
// `tsc` (src/api-docs/json.ts).
import { z } from "zod";
import { sameShape, type SameShape } from "../api-docs/json.ts";
import type { publicPlans } from "./plans.ts";
import type { activeSubscription, handleWebhook, subscribe, validateVatNumber } from "./service.ts";

export const PlanSchema = z
  .object({ id: z.enum(["basic", "pro", "enterprise"]), name: z.string(), description: z.string(), priceMonthly: z.number().describe("EUR a month, VAT excluded"), features: z.array(z.string()) })
  .meta({ id: "Plan" });

export const ActiveSubscriptionSchema = z
  .object({
    active: z.boolean(),
    subscription: z
      .object({
        planId: z.string(),
        status: z.string().describe("Stripe's subscription status (active, past_due, canceled, …)"),
        currentPeriodEnd: z.iso.datetime({ offset: true }).nullable(),
        cancelAtPeriodEnd: z.boolean(),
        plan: z.object({ name: z.string() }),
      })
      .nullable(),
  })
  .meta({ id: "ActiveSubscription" });

export const CheckoutSchema = z.object({ url: z.string().describe("Stripe Checkout, or the billing page after a plan change") });

export const WebhookAnswerSchema = z.object({ received: z.literal(true), duplicate: z.literal(true).optional() });

export const VatCheckSchema = z.object({ isValid: z.boolean(), companyName: z.string().nullable(), countryCode: z.string(), vatNumber: z.string() });

export const BusinessInfoSchema = z.object({ countryCode: z.string().describe("Where the seller is established (VAT)") });

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
sameShape<SameShape<Returned<typeof publicPlans>, z.ZodArray<typeof PlanSchema>>>(true);
sameShape<SameShape<Returned<typeof activeSubscription>, typeof ActiveSubscriptionSchema>>(true);
sameShape<SameShape<Returned<typeof subscribe>, typeof CheckoutSchema>>(true);
sameShape<SameShape<Returned<typeof handleWebhook>, typeof WebhookAnswerSchema>>(true);
sameShape<SameShape<Returned<typeof validateVatNumber>, typeof VatCheckSchema>>(true);
