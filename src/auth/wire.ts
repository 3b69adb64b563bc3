// What the auth and token API answers, as zod schemas and the JSON types they describe: the OpenAPI document's source and
// the types the CLI and the islands read responses with (src/auth/responses.ts checks them against the services).
import { z } from "zod";
import { SCOPES } from "./model.ts";

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

/** A token as the examples show it: the list's, and the one just made (with its secret). */
const tokenExample = {
  id: 3,
  name: "laptop",
  scopes: ["links:read", "links:write"],
  expiresAt: null,
  createdByUserId: 7,
  createdAt: "2026-11-20T09:30:00.000Z",
  lastUsedAt: null,
};

export const ApiTokenSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    scopes: z
      .array(z.enum(SCOPES))
      .nullable()
      .describe("What the token may do within its creator's role; null: everything (a token made before scopes)"),
    expiresAt: timestamp.nullable().describe("When it stops working; null: never"),
    createdByUserId: z.number().int().describe("Who made it: it acts as them, and goes when they leave the workspace"),
    createdAt: timestamp,
    lastUsedAt: timestamp.nullable().describe("Refreshed at most once a minute"),
  })
  .meta({ id: "ApiToken", example: tokenExample });

export const NewApiTokenSchema = ApiTokenSchema.extend({
  token: z.string().describe("Shown once: only its hash is kept"),
}).meta({ id: "NewApiToken", example: { ...tokenExample, token: "lp_3q8…" } });

export type UserJson = z.output<typeof UserSchema>;
export type ApiTokenJson = z.output<typeof ApiTokenSchema>;
export type NewApiTokenJson = z.output<typeof NewApiTokenSchema>;
