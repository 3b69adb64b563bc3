// A service's value as the API sends it. Services speak in `Date`s; the wire schemas (src/*/wire.ts), which a route
// declares as its `response`, in ISO strings. `asJson` is the one crossing, typed so that Elysia checks the result
// against the schema at compile time (and validates it at run time).

/** A value as JSON.stringify sends it: dates become ISO strings. */
export type Json<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Json<U>[]
    : T extends object
      ? { [K in keyof T]: Json<T[K]> }
      : T;

function toJson(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, toJson(field)]));
  return value;
}

export const asJson = <T>(value: T): Json<T> => toJson(value) as Json<T>;
