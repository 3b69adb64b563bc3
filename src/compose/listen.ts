// The listeners: the public one (the raw routes of src/compose/raw-routes.ts first, then a custom domain's /go,
// then the app) and the operator's own (src/start/private-listeners.ts).
import type { Config } from "../config/config.ts";
import type { Logger } from "../observability/log.ts";
import type { DomainHosts } from "../domains/host-map.ts";
import { badHostAnswer } from "../http/bad-host.ts";
import { clientIp, proxyTrust } from "../http/client-ip.ts";
import { securityHeaders, withSecurityHeaders } from "../http/security-headers.ts";
import type { ServerMetrics } from "../metrics/metrics.ts";
import { requestIdFor } from "../observability/request-facts.ts";
import { listenerUrl, startPrivateListeners } from "../start/private-listeners.ts";
import type { AppAnswerer } from "./app-answerer.ts";
import type { GoSide } from "./go-side.ts";
import type { Observed, rawRoutes } from "./raw-routes.ts";

export type Answerers = {
  routes: Awaited<ReturnType<typeof rawRoutes>>;
  customHost: GoSide["customHost"];
  app: AppAnswerer;
  observed: Observed;
};

export function listen(
  config: Config,
  answerers: Answerers,
  metrics: ServerMetrics | null,
  hosts: DomainHosts,
  log: Logger,
) {
  const server = listenPublicly(config, answerers);
  const privateListeners = startPrivateListeners(config, metrics, hosts, log);
  const { metricsUrl, askUrl, askRoutes } = privateListeners;
  return {
    addresses: { url: listenerUrl(config.host, server.port), port: server.port!, metricsUrl, askUrl, askRoutes },
    stop: () => Promise.all([server.stop(), privateListeners.stop()]),
  };
}

function listenPublicly(config: Config, { routes, customHost, app, observed }: Answerers) {
  const pageHeaders = securityHeaders(config);
  const proxies = proxyTrust(config.trustProxy, config.trustedProxies);
  return Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: config.maxBodyBytes,
    // While the database is away a request may wait for a connection attempt or two (db/postgres/options.ts) before
    // its 503: Bun's default of 10 s would reset the client's connection instead.
    idleTimeout: 30,
    development: false,
    routes,
    fetch: async (request, server) => {
      const badHost = badHostAnswer(request);
      if (badHost !== null) return withSecurityHeaders(badHost, pageHeaders);
      const onCustomHost = customHost(request, server);
      if (onCustomHost !== null) return onCustomHost;
      const started = performance.now();
      const requestId = requestIdFor(request, config.trustProxy);
      // Found here, where the socket is (honouring TRUST_PROXY), and handed to the app beside the request.
      const answer = await app.answer(request, { clientAddress: clientIp(request, server, proxies), requestId });
      return withSecurityHeaders(observed(request, requestId, started, answer), pageHeaders);
    },
  });
}
