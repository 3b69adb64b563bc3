// What the request thread answers itself, without Elysia (no session, no body parsing): docs/decisions/0001, 0006.
// /go alone is neither logged nor given a request id: it is counted (GoCounts) and must stay that cheap.
import type { Config } from "../config/config.ts";
import type { Database } from "../db/ports.ts";
import { refuseBadHosts } from "../http/bad-host.ts";
import { retryAfterHeaders } from "../http/database-down.ts";
import { refuseMalformedPaths } from "../http/path-encoding.ts";
import { securityHeaders, withSecurityHeaders } from "../http/security-headers.ts";
import { metricsRoutes, type ServerMetrics } from "../metrics/metrics.ts";
import type { Logger } from "../observability/log.ts";
import { requestIdFor, withRequestId, type Facts } from "../observability/request-facts.ts";
import { assetRoutes } from "../pages/assets.ts";
import type { Services } from "../services.ts";
import type { GoSide } from "./go-side.ts";

/** Every answer but /go's: its request id, one log line, and its count and latency. */
export const observer =
  (services: Services, metrics: ServerMetrics | null) =>
  (
    request: Request,
    requestId: string,
    started: number,
    { response, route, userId }: Facts & { response: Response },
  ) => {
    const durationMs = performance.now() - started;
    services.log.request({ method: request.method, route, status: response.status, durationMs, requestId, userId });
    metrics?.observeRequest(request.method, route, response.status, durationMs / 1000);
    return withRequestId(response, requestId);
  };
export type Observed = ReturnType<typeof observer>;

type RawHandler = (request: Request & { params: any }) => Response | Promise<Response>;

/** Readiness (docs/self-hosting.md#health-checks): the database must answer. */
const readiness = (database: Database, log: Logger) => async () => {
  try {
    // A database that cannot be reached fails within a connection attempt (db/postgres/options.ts).
    await database.ping();
    return Response.json({ ok: true, message: "The database answers" });
  } catch (error) {
    log.error("health check", error);
    return Response.json(
      { ok: false, message: "The database does not answer" },
      { status: 503, headers: retryAfterHeaders },
    );
  }
};

/**
 * The Bun.serve `routes` table. A missing or malformed Host is refused first, as in the listener's `fetch`
 * (listen.ts): every raw handler may read request.url.
 */
export async function rawRoutes(
  config: Config,
  services: Services,
  goSide: GoSide,
  metrics: ServerMetrics | null,
  observed: Observed,
) {
  /** A route the request thread answers, observed like the app's. */
  const observe =
    (route: string, handler: RawHandler): RawHandler =>
    async (request) => {
      const started = performance.now();
      return observed(request, requestIdFor(request, config.trustProxy), started, {
        response: await handler(request),
        route,
        userId: undefined,
      });
    };
  const observeAll = (routes: Record<string, Record<string, RawHandler>>) =>
    Object.fromEntries(
      Object.entries(routes).map(([path, methods]) => [
        path,
        Object.fromEntries(Object.entries(methods).map(([method, handler]) => [method, observe(path, handler)])),
      ]),
    );
  const ready = readiness(services.database, services.log);
  const pageHeaders = securityHeaders(config);
  return refuseBadHosts(
    {
      ...refuseMalformedPaths({
        "/go/:userSlug/:linkSlug": goSide.go.plain,
        "/go/:userSlug/:linkSlug/:version": goSide.go.versioned,
      }),
      ...observeAll({
        ...refuseMalformedPaths({
          "/uploads/:name": {
            GET: (request: Request & { params: { name: string } }) => services.images.serve(request.params.name!),
          },
          ...(await assetRoutes()),
        }),
        ...(metrics && config.metrics.token ? metricsRoutes(metrics, config.metrics.token) : {}),
        // /healthz is the older name of /readyz.
        "/readyz": { GET: ready },
        "/healthz": { GET: ready },
        // Liveness: the process serves, so /go keeps redirecting from its cache while the database is away.
        "/livez": { GET: () => Response.json({ ok: true, message: "The process serves requests" }) },
      }),
    },
    (answer) => withSecurityHeaders(answer, pageHeaders),
  );
}
