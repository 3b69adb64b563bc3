import { Elysia } from "elysia";
import { z } from "zod";
import { documented } from "../api-docs/documented.ts";
import type { VersionInfo } from "./version.ts";

/** Where the slow route says, with the server's port, that it has begun holding its thread (any thread hears it). */
export const SLOW_ROUTE_STARTED = "linkprev-test-slow-route-started";

/** What /api/version (and, in tests, /api/test/slow) need. */
export type MetaRouteDeps = {
  version: VersionInfo;
  /** TEST_SLOW_ROUTE_MS: 0 leaves the slow route out. */
  testSlowRouteMs: number;
  /** The server's port, which the slow route announces. */
  port: number;
};

export const metaRoutes = (deps: MetaRouteDeps) => {
  const app = new Elysia().use(documented).get("/api/version", () => deps.version, {
    response: {
      200: z.object({ major: z.number().int(), minor: z.number().int(), patch: z.number().int(), release: z.string() }),
    },
    doc: {
      id: "version",
      tag: "Meta",
      summary: "The server's version",
      answers: {
        200: { description: "The version", example: { major: 1, minor: 4, patch: 0, release: "2026.11.22" } },
      },
    },
  });
  const slowMs = deps.testSlowRouteMs;
  // Tests only (TEST_SLOW_ROUTE_MS): a handler that holds its thread, as a heavy page render would.
  if (slowMs > 0)
    app.get("/api/test/slow", () => {
      const started = new BroadcastChannel(SLOW_ROUTE_STARTED);
      started.postMessage(deps.port);
      started.close();
      const until = performance.now() + slowMs;
      while (performance.now() < until);
      return { heldMs: slowMs };
    });
  return app;
};
