// Builds the Elysia app from the feature modules; no logic of its own.
import { Elysia } from "elysia";
import { accountRoutes } from "./account/routes.ts";
import { authRoutes } from "./auth/routes.ts";
import { billingRoutes } from "./billing/routes.ts";
import type { AppContext } from "./context.ts";
import { errorHandler } from "./http/error-handler.tsx";
import { linkRoutes } from "./links/routes.ts";
import { metaRoutes } from "./meta/routes.ts";
import { pageRoutes } from "./pages/routes.ts";

export function createApp(ctx: AppContext) {
  return new Elysia()
    .use(errorHandler(ctx.pages))
    .use(metaRoutes(ctx))
    .use(authRoutes(ctx))
    .use(linkRoutes(ctx))
    .use(billingRoutes(ctx))
    .use(accountRoutes(ctx))
    .use(pageRoutes(ctx));
}
