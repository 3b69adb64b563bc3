// Builds the Elysia app from the feature modules; no logic of its own.
import { Elysia } from "elysia";
import type { AppContext } from "./context.ts";
import { errorHandler } from "./http/error-handler.tsx";
import { metaRoutes } from "./meta/routes.ts";
import type { PageRenderer } from "./pages/render.tsx";

export function createApp(ctx: AppContext, pages: PageRenderer, assets: Elysia) {
  return new Elysia()
    .use(errorHandler(pages))
    .use(assets)
    .use(metaRoutes(ctx));
}
