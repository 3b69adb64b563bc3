// The query string as every route reads it, whether or not it declares a query schema (docs/decisions/0055): each
// name's last value, as written. With a Standard Schema (zod) query, Elysia would otherwise split values at commas,
// JSON-parse values in [] or {} and collect repeated names into arrays, so `?q=a,b` would be refused as not a string.
import { Elysia } from "elysia";
import { parseQueryFromURL } from "elysia/parse-query";

export const plainQuery = () =>
  new Elysia({ name: "plain-query" }).onTransform({ as: "global" }, (context) => {
    const start = context.request.url.indexOf("?");
    if (start !== -1) context.query = parseQueryFromURL(context.request.url, start + 1);
  });
