import { Elysia } from "elysia";
import type { Services } from "../services.ts";

export const metaRoutes = (services: Services) => {
  const app = new Elysia().get("/api/version", () => services.version);
  const slowMs = services.config.testSlowRouteMs;
  // Tests only (TEST_SLOW_ROUTE_MS): a handler that holds its thread, as a heavy page render would.
  if (slowMs > 0)
    app.get("/api/test/slow", () => {
      const until = performance.now() + slowMs;
      while (performance.now() < until);
      return { heldMs: slowMs };
    });
  return app;
};
