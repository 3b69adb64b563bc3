// Keeps each auth response schema (src/auth/wire.ts) and the service that produces it the same shape, checked by
// `tsc` (src/api-docs/json.ts).
import type { z } from "zod";
import { sameShape, type SameShape } from "../api-docs/json.ts";
import type { createApiToken, listApiTokens } from "./api-tokens.ts";
import type { publicUser } from "./users.ts";
import type { ApiTokenSchema, NewApiTokenSchema, UserSchema } from "./wire.ts";

type Returned<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
sameShape<SameShape<Returned<typeof publicUser>, typeof UserSchema>>(true);
sameShape<SameShape<Returned<typeof listApiTokens>, z.ZodArray<typeof ApiTokenSchema>>>(true);
sameShape<SameShape<Returned<typeof createApiToken>, typeof NewApiTokenSchema>>(true);
