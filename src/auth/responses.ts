// What the auth and token API answers, as zod schemas (the OpenAPI document's source), checked against the
// services by `tsc` (src/api-docs/json.ts).
import { z } from "zod";
import { sameShape, type SameShape } from "../api-docs/json.ts";
import type { createApiToken, listApiTokens } from "./api-tokens.ts";
import type { publicUser } from "./users.ts";

const timestamp = z.iso.datetime({ offset: true });

export const UserSchema = z
  .object({
    id: z.number().int(),
    email: z.string(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    stripeCustomerId: z.string().nullable(),
    userSlug: z.string().describe("The first part of every short URL of this user's"),
    createdAt: timestamp,
    updatedAt: timestamp,
    needsConsent: z.boolean(),
    hasConsent: z.boolean(),
  })
  .meta({ id: "User" });

export const ApiTokenSchema = z
  .object({ id: z.number().int(), name: z.string(), createdAt: timestamp, lastUsedAt: timestamp.nullable().describe("Refreshed at most once a minute") })
  .meta({ id: "ApiToken", example: { id: 3, name: "laptop", createdAt: "2026-11-20T09:30:00.000Z", lastUsedAt: null } });

export const NewApiTokenSchema = ApiTokenSchema.extend({ token: z.string().describe("Shown once: only its hash is kept") }).meta({
  id: "NewApiToken",
  example: { id: 3, name: "laptop", createdAt: "2026-11-20T09:30:00.000Z", lastUsedAt: null, token: "lp_3q8…" },
});

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
sameShape<SameShape<Returned<typeof publicUser>, typeof UserSchema>>(true);
sameShape<SameShape<Returned<typeof listApiTokens>, z.ZodArray<typeof ApiTokenSchema>>>(true);
sameShape<SameShape<Returned<typeof createApiToken>, typeof NewApiTokenSchema>>(true);
