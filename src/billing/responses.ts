// Keeps each billing response schema (src/billing/wire.ts) and the service that produces it the same shape, checked by
// `tsc` (src/api-docs/json.ts).
import type { z } from "zod";
import { sameShape, type SameShape } from "../api-docs/json.ts";
import type { publicPlans } from "../plans/plans.ts";
import type { activeSubscription, handleWebhook, subscribe, validateVatNumber } from "./service.ts";
import type {
  ActiveSubscriptionSchema,
  CheckoutSchema,
  PlanSchema,
  VatCheckSchema,
  WebhookAnswerSchema,
} from "./wire.ts";

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
sameShape<SameShape<Returned<typeof publicPlans>, z.ZodArray<typeof PlanSchema>>>(true);
sameShape<SameShape<Returned<typeof activeSubscription>, typeof ActiveSubscriptionSchema>>(true);
sameShape<SameShape<Returned<typeof subscribe>, typeof CheckoutSchema>>(true);
sameShape<SameShape<Returned<typeof handleWebhook>, typeof WebhookAnswerSchema>>(true);
sameShape<SameShape<Returned<typeof validateVatNumber>, typeof VatCheckSchema>>(true);
