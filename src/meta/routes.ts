import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";

export const metaRoutes = (ctx: AppContext) =>
  new Elysia()
    .get("/api/version", () => ctx.version)
    // For container health checks: the database must answer.
    .get("/healthz", async () => {
      await ctx.engine.ping();
      return { ok: true };
    });
