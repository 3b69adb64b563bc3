// Input is declared on the route (`body`, `query`, `params`: zod through Standard Schema, docs/decisions/0055) and
// refused in one place, src/http/error-handler.ts. parseInput is for what a route cannot declare.
import { z } from "zod";
import { validationError } from "./errors.ts";

/** Parses untrusted input with a zod schema; a failure is a 400 naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error.issues);
  return result.data;
}

/**
 * A numeric id in a path. A path whose id is not a whole number from 1 to `max` names nothing: 404 with
 * `notFoundMessage`, as when the lookup finds nothing.
 */
export const pathId = (notFoundMessage: string, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number(notFoundMessage).int(notFoundMessage).min(1, notFoundMessage).max(max, notFoundMessage);

/** Ids are 32-bit in the database: a larger one names nothing (pathId's `max` for the tables that say so). */
export const INT32_ID_MAX = 2_147_483_647;

/** An e-mail address someone types (sign-in by e-mail, an invite): trimmed, lower-cased, at most 254 characters. */
export const emailAddress = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "An e-mail address is at most 254 characters")
  .pipe(z.email("Enter an e-mail address such as ana@example.com"));
