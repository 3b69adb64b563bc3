// GET /api/openapi.json and GET /docs/api: the API described, built once per app from the operations list.
import { Elysia } from "elysia";
import { createElement } from "react";
import { authPlugin } from "../auth/plugin.ts";
import type { AppContext } from "../context.ts";
import { formatVersion } from "../meta/version.ts";
import { ApiReferencePage } from "../pages/api-reference.tsx";
import { openApiDocument } from "./openapi.ts";

export function apiDocsRoutes(ctx: AppContext) {
  const document = openApiDocument({ version: formatVersion(ctx.version), serverUrl: ctx.config.publicUrl });
  const json = JSON.stringify(document);
  return new Elysia()
    .use(authPlugin(ctx))
    .get("/api/openapi.json", () => new Response(json, { headers: { "Content-Type": "application/json; charset=utf-8" } }))
    .get("/docs/api", ({ viewer }) => ctx.pages.response(createElement(ApiReferencePage, { document }), { title: "API reference", user: viewer?.user ?? null }));
}
