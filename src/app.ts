// Builds the Elysia app from the feature modules; no logic of its own.
import { Elysia } from "elysia";
import { apiDocsRoutes } from "./api-docs/routes.ts";
import { accountRoutes } from "./account/routes.ts";
import { authRoutes } from "./auth/routes.ts";
import { billingRoutes } from "./billing/routes.ts";
import type { AppContext } from "./context.ts";
import { errorHandler } from "./http/error-handler.tsx";
import { pathEncoding } from "./http/path-encoding.ts";
import { linkRoutes } from "./links/routes.ts";
import { metaRoutes } from "./meta/routes.ts";
import { requestFacts } from "./observability/request-facts.ts";
import { pageRoutes } from "./pages/routes.ts";

export function createApp(ctx: AppContext) {
  return new Elysia()
    .use(requestFacts())
    .use(errorHandler(ctx.pages, ctx.log))
    .use(pathEncoding())
    .use(metaRoutes(ctx))
    .use(authRoutes(ctx))
    .use(linkRoutes(ctx))
    .use(billingRoutes(ctx))
    .use(apiDocsRoutes(ctx))
    .use(accountRoutes(ctx))
    .use(pageRoutes(ctx));
}
