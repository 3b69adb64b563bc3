import { Elysia } from "elysia";
import type { Services } from "../services.ts";

/** Where the slow route says, with the server's port, that it has begun holding its thread (any thread hears it). */
export const SLOW_ROUTE_STARTED = "linkprev-test-slow-route-started";

export const metaRoutes = (services: Services) => {
  const app = new Elysia().get("/api/version", () => services.version);
  const slowMs = services.config.testSlowRouteMs;
  // Tests only (TEST_SLOW_ROUTE_MS): a handler that holds its thread, as a heavy page render would.
  if (slowMs > 0)
    app.get("/api/test/slow", () => {
      const started = new BroadcastChannel(SLOW_ROUTE_STARTED);
      started.postMessage(services.config.port);
      started.close();
      const until = performance.now() + slowMs;
      while (performance.now() < until);
      return { heldMs: slowMs };
    });
  return app;
};
