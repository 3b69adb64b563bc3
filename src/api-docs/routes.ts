// GET /api/openapi.json: the API described, built once per process (src/app.ts). (/docs/api, the page showing
// it, is src/pages/routes.ts.)
import { Elysia } from "elysia";
import { z } from "zod";
import { documented } from "./documented.ts";
import type { OpenApiDocument } from "./openapi.ts";

export function apiDocsRoutes(document: () => OpenApiDocument) {
  let json: string | undefined;
  return new Elysia().use(documented).get(
    "/api/openapi.json",
    () =>
      new Response((json ??= JSON.stringify(document())), {
        headers: { "Content-Type": "application/json; charset=utf-8" },
      }),
    {
      response: { 200: z.object({ openapi: z.string() }).loose() },
      doc: { id: "openApiDocument", tag: "Meta", summary: "This document", answers: { 200: "OpenAPI 3.1" } },
    },
  );
}
