// POST /api/tokens's body: a name, and optionally what the token may do and for how long (docs/decisions/0065).
import { z } from "zod";
import { WITHOUT_NUL } from "../http/text.ts";
import { type Scope, SCOPES } from "./model.ts";
import type { TokenGrant } from "./api-tokens.ts";

/** A token lives at most ten years: a date further than that is a typo. */
const MAX_DAYS = 3650;

export const NewTokenInput = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Name is required")
    .max(100, "Name must be 100 characters or less")
    .regex(WITHOUT_NUL, "Name contains a character that is not allowed"),
  scopes: z
    .array(z.enum(SCOPES, `A scope is one of ${SCOPES.join(", ")}`))
    .min(1, "Give at least one scope, or leave scopes out for a token with every power your role gives")
    .optional()
    .describe("What the token may do, within your role; left out: everything your role allows"),
  expiresInDays: z
    .number()
    .int("expiresInDays is a whole number of days")
    .min(1, "expiresInDays is at least 1")
    .max(MAX_DAYS, `expiresInDays is at most ${MAX_DAYS}`)
    .optional()
    .describe("Days until the token stops working; left out: never"),
});

/** What the new token is granted, from the body, as of `now`. */
export const grantOf = (input: { scopes?: Scope[]; expiresInDays?: number }, now: number): TokenGrant => ({
  scopes: input.scopes ?? null,
  expiresAt: input.expiresInDays === undefined ? null : new Date(now + input.expiresInDays * 86_400_000),
});
