// Starts LinkPrev: opens the platform, composes, starts the jobs, listens (docs/architecture.md, "Start-up and
// jobs"). The request thread answers only what must be instant: /go, /uploads, the static assets and the health
// checks, as raw Bun routes (src/compose/raw-routes.ts). Everything else (pages, API, webhooks, sign-in) runs in
// app workers (src/start/app-workers.ts), or on this thread with APP_WORKERS=0 (src/compose/app-answerer.ts).
import type { MovingClock } from "./clock.ts";
import { startAppAnswerer } from "./compose/app-answerer.ts";
import { composeGoSide } from "./compose/go-side.ts";
import { listen } from "./compose/listen.ts";
import { composeMetrics } from "./compose/metrics.ts";
import { observer, rawRoutes } from "./compose/raw-routes.ts";
import { serverJobs } from "./compose/server-jobs.ts";
import type { Config } from "./config/config.ts";
import type { Change } from "./db/change.ts";
import { openPlatform } from "./db/platform.ts";
import { startJobs } from "./jobs/registry.ts";
import { makePrivateDir } from "./private-files.ts";
import { closeServices, createServices, type Services } from "./services.ts";
import { listRoutes } from "./start/private-listeners.ts";
import { storageWarnings } from "./start/start-banner.ts";
import { DeliveryWorker } from "./webhooks/delivery-worker.ts";

export type RunningServer = {
  url: string;
  port: number;
  /** The request thread's services (config, database, …): the app workers each build their own. */
  ctx: Services;
  /** A link changed behind this server's back (tests that seed the database): what its announcement does. */
  changed: (change: Change) => void;
  /** Stores every buffered view now (tests, admin). */
  flushViews: () => Promise<void>;
  /** With a test's clock: resolves after the next webhook poll at that clock's time (delivery-worker.ts). */
  nextWebhookPoll: () => Promise<void>;
  /** Every route served, as "METHOD /path" (the authorization matrix test checks each has a row). */
  routes: string[];
  askRoutes: string[]; // The ask listener's ("GET /tls/ask", …); none without one.
  /** The metrics' own listener (METRICS_PORT), if any. */
  metricsUrl: string | null;
  /** Caddy's TLS ask listener (TLS_ASK_PORT), if any. */
  askUrl: string | null;
  /** Stops accepting requests, lets the workers finish, stores buffered views, closes the database. */
  stop: () => Promise<void>;
};

/** `clock`: a test's (src/clock.ts): this thread's services read it, the app workers and deliveries follow it. */
export async function startServer(config: Config, clock?: MovingClock): Promise<RunningServer> {
  makePrivateDir(config.dataDir);
  makePrivateDir(config.uploadsDir);
  const platform = await openPlatform(config);
  await platform.database.migrate();
  const ctx = createServices(config, platform, undefined, clock);
  for (const warning of storageWarnings(config)) ctx.log.warn(warning);
  const goSide = await composeGoSide(config, platform, ctx);
  const { changed, hosts, views } = goSide;
  const stopJobs = await startJobs(serverJobs({ config, services: ctx, hosts, changed }), platform.jobs, ctx.log);
  // Deliveries run in their own worker, never on this thread; a test's clock drives it from here.
  const webhooks = await DeliveryWorker.start(config, clock ?? null, ctx.log);
  const app = await startAppAnswerer(config, ctx, changed, clock ?? null);
  const metrics = composeMetrics(config, ctx, goSide, webhooks, app.inFlight);
  const observed = observer(ctx, metrics);
  const routes = await rawRoutes(config, ctx, goSide, metrics, observed);
  const listeners = listen(config, { routes, customHost: goSide.customHost, app, observed }, metrics, hosts, ctx.log);

  let stopping: Promise<void> | null = null;
  return {
    ...listeners.addresses,
    ctx,
    changed,
    flushViews: () => views.flush(),
    nextWebhookPoll: () => webhooks.nextDrivenPoll(),
    routes: [...listRoutes(routes), ...app.routes],
    // The reverse of the start: jobs, listeners and workers, then what they write to, the database last.
    stop: () =>
      (stopping ??= (async () => {
        await Promise.all([stopJobs(), listeners.stop(), webhooks.stop()]);
        try {
          await app.close();
        } finally {
          // Views never pass through the workers: stored whatever happened to them.
          await views.close();
          await closeServices(ctx);
        }
      })()),
  };
}
