// GET /api/openapi.json: the API described, built once per process (src/app.ts). (/docs/api, the page showing
// it, is src/pages/routes.ts.)
import { Elysia } from "elysia";
import type { OpenApiDocument } from "./openapi.ts";

export function apiDocsRoutes(document: OpenApiDocument) {
  const json = JSON.stringify(document);
  return new Elysia().get(
    "/api/openapi.json",
    () => new Response(json, { headers: { "Content-Type": "application/json; charset=utf-8" } }),
  );
}
