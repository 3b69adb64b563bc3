// What the billing API answers, as zod schemas and the JSON types they describe: the OpenAPI document's source and
// the types the CLI and the islands read responses with (src/billing/responses.ts checks them against the services).
import { z } from "zod";

export const PlanSchema = z
  .object({
    id: z.enum(["basic", "pro", "enterprise"]),
    name: z.string(),
    description: z.string(),
    priceMonthly: z.number().describe("EUR a month, VAT excluded"),
    features: z.array(z.string()),
  })
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

export const CheckoutSchema = z.object({
  url: z.string().describe("Stripe Checkout, or the billing page after a plan change"),
});

export const WebhookAnswerSchema = z.object({ received: z.literal(true), duplicate: z.literal(true).optional() });

export const VatCheckSchema = z.object({
  isValid: z.boolean(),
  companyName: z.string().nullable(),
  countryCode: z.string(),
  vatNumber: z.string(),
});

export const BusinessInfoSchema = z.object({
  countryCode: z.string().describe("Where the seller is established (VAT)"),
});

export type PlanJson = z.output<typeof PlanSchema>;
export type ActiveSubscriptionJson = z.output<typeof ActiveSubscriptionSchema>;
export type CheckoutJson = z.output<typeof CheckoutSchema>;
export type WebhookAnswerJson = z.output<typeof WebhookAnswerSchema>;
export type VatCheckJson = z.output<typeof VatCheckSchema>;
export type BusinessInfoJson = z.output<typeof BusinessInfoSchema>;
