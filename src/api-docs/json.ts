// Type checks that keep the documented response schemas and the services' return values the same shape: a
// service that gains, loses or changes a field without its schema fails `tsc`.
import type { z } from "zod";

/** A value as JSON.stringify sends it: dates become ISO strings. */
export type Json<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

/** True when the service's JSON and the schema's output each fit the other. */
export type SameShape<Returned, Schema extends z.ZodType> = [Json<Returned>] extends [z.output<Schema>]
  ? [z.output<Schema>] extends [Json<Returned>]
    ? true
    : false
  : false;

/** Use as `assertSameShape<SameShape<A, typeof S>>(true)`: a compile error when the shapes differ. */
export const sameShape = <T extends true>(_proof: T): void => {};
