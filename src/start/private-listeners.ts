// The operator's own listeners beside the public one: /metrics (METRICS_PORT) and Caddy's TLS ask check
// (TLS_ASK_PORT), each bound where only the operator or the proxy can reach it (by default loopback).
import type { Config } from "../config/config.ts";
import { askFallback, askRoutes } from "../domains/ask.ts";
import type { DomainHosts } from "../domains/host-map.ts";
import type { Logger } from "../observability/log.ts";
import type { ServerMetrics } from "../metrics/metrics.ts";

/** `http://host:port`, with an IPv6 host in brackets. */
export const listenerUrl = (host: string, port: number | undefined) =>
  `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

/** "METHOD /path" for each handler of a Bun.serve `routes` object. */
export const listRoutes = (routes: Record<string, object>) =>
  Object.entries(routes).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`));

export function startPrivateListeners(
  config: Config,
  metrics: ServerMetrics | null,
  domainHosts: DomainHosts,
  log: Logger,
) {
  // Scraped without a token (METRICS_HOST).
  const metricsServer =
    metrics && config.metrics.port !== null
      ? Bun.serve({
          port: config.metrics.port,
          hostname: config.metrics.host,
          development: false,
          fetch: (request) =>
            new URL(request.url).pathname === "/metrics"
              ? metrics.response()
              : new Response("Not found", { status: 404 }),
        })
      : null;
  const ask = askRoutes(domainHosts);
  const askServer =
    config.domains.askPort !== null
      ? Bun.serve({
          port: config.domains.askPort,
          hostname: config.domains.askHost,
          development: false,
          routes: ask,
          fetch: askFallback,
        })
      : null;
  const askUrl = askServer ? listenerUrl(config.domains.askHost, askServer.port) : null;
  if (askServer && config.domains.askPort === 0) log.info(`TLS ask endpoint: ${askUrl}/tls/ask`);
  return {
    metricsUrl: metricsServer ? listenerUrl(config.metrics.host, metricsServer.port) : null,
    askUrl,
    askRoutes: askServer ? listRoutes(ask) : [],
    stop: async () => {
      await askServer?.stop();
      await metricsServer?.stop();
    },
  };
}
