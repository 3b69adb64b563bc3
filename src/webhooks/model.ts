// The webhook rules shared by the API, the pages and the CLI: what an endpoint may be.
import { z } from "zod";
import { WEBHOOK_EVENT_TYPES } from "./wire.ts";

/** Endpoints one account may have. */
export const MAX_ENDPOINTS = 10;
export const MAX_DESCRIPTION = 200;

/** Plans with webhooks (billing off: everyone has enterprise). */
const WEBHOOK_PLANS = new Set(["pro", "enterprise"]);
export const planHasWebhooks = (planId: string) => WEBHOOK_PLANS.has(planId);
/** Why an account on another plan cannot add an endpoint (the API's 403 and the Webhooks page say it alike). */
export const PLAN_WITHOUT_WEBHOOKS = "Webhooks are available on the Pro and Enterprise plans.";

const events = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, `events: each must be one of ${WEBHOOK_EVENT_TYPES.join(", ")}`))
  .min(1, "choose at least one event");

export const WebhookEndpointInput = z.object({
  url: z.string("url is required").trim().min(1, "url is required").max(2048, "url must be 2048 characters or less"),
  events: events.transform((list) => [...new Set(list)]),
  description: z
    .string()
    .trim()
    .max(MAX_DESCRIPTION, `description must be ${MAX_DESCRIPTION} characters or less`)
    .default(""),
});
export type WebhookEndpointInput = z.infer<typeof WebhookEndpointInput>;

export const WebhookEndpointPatch = z.object({
  url: WebhookEndpointInput.shape.url.optional(),
  events: events.transform((list) => [...new Set(list)]).optional(),
  description: z
    .string()
    .trim()
    .max(MAX_DESCRIPTION, `description must be ${MAX_DESCRIPTION} characters or less`)
    .optional(),
  enabled: z.boolean("enabled must be true or false").optional(),
  paused: z.boolean("paused must be true or false").optional(),
});
export type WebhookEndpointPatch = z.infer<typeof WebhookEndpointPatch>;
