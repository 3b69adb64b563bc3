import type { z } from "zod";
import { validationError } from "./errors.ts";

/** Parses untrusted input with a zod schema; a failure is a 400 naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(result.error.issues);
  return result.data;
}
