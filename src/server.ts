// Starts LinkPrev. The request thread answers only what must be instant: /go, /uploads, the static assets and
// /healthz, as raw Bun routes. Everything else (pages, API, webhooks, sign-in) runs in app workers
// (src/app-workers.ts), or on this thread with APP_WORKERS=0.
import { makePrivateDir } from "./private-files.ts";
import { createElement } from "react";
import { AppWorkerPool } from "./app-workers.ts";
import { createApp } from "./app.ts";
import { storageWarnings } from "./start-banner.ts";
import { deleteExpiredSessions } from "./auth/sessions.ts";
import { badHostAnswer, refuseBadHosts } from "./http/bad-host.ts";
import { clientIp, proxyTrust } from "./http/client-ip.ts";
import { refuseMalformedPaths } from "./http/path-encoding.ts";
import { securityHeaders, withSecurityHeaders } from "./http/security-headers.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { createServices, type Services } from "./services.ts";
import { linkChange, type Change } from "./db/change.ts";
import { openPlatform } from "./db/platform.ts";
import { assetRoutes } from "./pages/assets.ts";
import { ExpiredPage, GonePage, NotFoundPage, UnavailablePage } from "./pages/not-found.tsx";
import { DATABASE_DOWN_MESSAGE, retryAfterHeaders } from "./http/database-down.ts";
import { createRuleAnswerer } from "./rules/answer.ts";
import { scheduleLinkHealth } from "./rules/health.ts";
import { createVisitorClassifier } from "./redirect/classify.ts";
import { createGoHandler, GoCounts } from "./redirect/go.ts";
import { uploadsInUse } from "./links/images/usage.ts";
import { finishMarkedDeletions } from "./account/deletion.ts";
import { LinkCache } from "./redirect/link-cache.ts";
import { createCustomHostRouter } from "./redirect/custom-host.ts";
import { DomainHosts } from "./domains/host-map.ts";
import { startRecheckJob } from "./domains/recheck-job.ts";
import { startSafetyWork } from "./safety/background.ts";
import { inspectAnswer } from "./safety/inspect.ts";
import { safetyState } from "./safety/state.ts";
import { ViewRecorder } from "./redirect/view-recorder.ts";
import { metricsRoutes, ServerMetrics } from "./observability/metrics.ts";
import { listenerUrl, listRoutes, startPrivateListeners } from "./private-listeners.ts";
import { DeliveryWorker } from "./webhooks/delivery-worker.ts";
import { queueStats } from "./webhooks/queue-stats.ts";
import {
  AppRequest,
  handleNotingFacts,
  requestIdFor,
  withRequestId,
  type Facts,
} from "./observability/request-facts.ts";

/** How long a /go cache entry is trusted on PostgreSQL without a change notification. */
const LINK_MAX_AGE_MS = 60_000;

/** Nodes sharing an uploads store keep young unreferenced uploads: another node may be committing their link. */
const UPLOAD_GRACE_MS = 3_600_000;

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

/** `clock`: a test's (src/clock.ts); it reaches this thread's services only, so it needs APP_WORKERS=0. */
export async function startServer(config: Config, clock?: Clock): Promise<RunningServer> {
  if (clock && config.appWorkers > 0)
    throw new Error("A test clock reaches this thread only: start the server with APP_WORKERS=0");
  makePrivateDir(config.dataDir);
  makePrivateDir(config.uploadsDir);
  const platform = await openPlatform(config);
  const { database, changes, jobs } = platform;
  await database.migrate();
  const db = database.db;

  // On PostgreSQL other nodes change links too: entries are re-read after a minute even if a notification
  // was lost; one SQLite process sees every change itself.
  const ctx = createServices(config, platform, undefined, clock);
  for (const warning of storageWarnings(config)) ctx.log.warn(warning);
  const linkCache = new LinkCache(
    platform.goLinks,
    config.linkCache.bytes,
    ctx.clock,
    ctx.log,
    database.kind === "postgres" ? LINK_MAX_AGE_MS : undefined,
  );
  // Custom domains by host (src/domains/host-map.ts): reloaded on a domain change, like links on theirs.
  const domainHosts = new DomainHosts(
    () => database.db,
    ctx.billingEnabled,
    () => ctx.clock.now(),
    ctx.log,
  );
  const changed = (change: Change) => {
    linkCache.invalidate(change);
    domainHosts.onChange(change);
  };
  await changes.subscribeChanges(changed, () => {
    linkCache.clear();
    domainHosts.reloadInBackground();
  });
  if (config.linkCache.deprecation) ctx.log.warn(config.linkCache.deprecation);
  const warming = performance.now();
  const warmed = await linkCache.warm((held) =>
    ctx.log.info(
      `Link cache: ${held} links held, ${Math.round(linkCache.bytes / 2 ** 20)} MB, filled in ${Math.round(performance.now() - warming)} ms`,
    ),
  );
  ctx.log.info(
    `Link cache: ${Math.round(config.linkCache.bytes / 2 ** 20)} MB (${config.linkCache.source}); ${warmed} links held at start, ` +
      `${Math.round(linkCache.filterBytes / 2 ** 20)} MB address filter, in ${Math.round(performance.now() - warming)} ms`,
  );
  await domainHosts.reload();
  const stopWatchingHosts = domainHosts.watch();
  const stopRecheck = startRecheckJob(ctx.domains);
  const views = await ViewRecorder.start(platform.viewWriter, {
    flushMs: config.viewFlushMs,
    batchMax: config.viewBatchMax,
    retention: { maxAgeMs: config.viewRetentionMs, everyMs: config.viewRetentionEveryMs },
    spool: { dir: config.dataDir, maxBytes: config.viewSpoolMaxBytes },
    clickWindowMs: config.webhooks.clickWindowMs,
    log: ctx.log,
    logFormat: config.logFormat,
  });
  await jobs.exclusively("upload-sweep", async () => {
    const orphans = await ctx.images.sweepOrphans(
      await uploadsInUse(db),
      database.kind === "postgres" ? UPLOAD_GRACE_MS : 0,
    );
    if (orphans > 0)
      ctx.log.info(`Removed ${orphans} uploaded image(s) that no link uses (left by an interrupted upload)`);
  });
  // Account deletions a crash stopped part-way (src/account/deletion.ts).
  await jobs.exclusively("account-deletions", async () => {
    const finished = await finishMarkedDeletions(ctx.deletion);
    if (finished > 0) ctx.log.info(`Finished ${finished} account deletion(s) left unfinished by an interruption`);
  });
  // Built here too: with APP_WORKERS=0 it answers on this thread, and it lists the routes either way.
  const app = createApp(ctx);
  const pool =
    config.appWorkers > 0
      ? await AppWorkerPool.start(config.appWorkers, config, {
          changed,
          uploadChanged: (name, bytes) => ctx.images.learn(name, bytes),
          countHit: platform.hits.countHit,
          acquirePixels: (pixels) => ctx.imageGate.acquire(pixels).catch(() => null),
          safetyCounted: (event) => ctx.safety.counts.count(event),
          imageWorkCounted: (event) => ctx.imageWork.count(event),
          log: ctx.log,
        })
      : null;

  const pageHeaders = securityHeaders(config);
  const hsts = pageHeaders["Strict-Transport-Security"];

  // Once per cluster: the sweep is idempotent, but N nodes need not all do it.
  const sweep = () =>
    jobs
      .exclusively("session-sweep", async () => {
        await deleteExpiredSessions(db, ctx.clock.now());
      })
      .catch((error) => ctx.log.error("session sweep failed", error));
  await sweep();
  const sessionSweep = setInterval(sweep, 3_600_000);
  sessionSweep.unref();
  // Needs the safe fetcher: with FETCH_DISABLED no target is ever fetched.
  const linkHealth = ctx.links.fetcher
    ? scheduleLinkHealth({
        database,
        jobs,
        fetcher: ctx.links.fetcher,
        clock: ctx.clock,
        log: ctx.log,
        publicUrl: config.publicUrl,
        everyMs: config.linkHealth.everyMs,
        hostGapMs: config.linkHealth.hostGapMs,
      })
    : null;
  const stopSafetyWork = await startSafetyWork(ctx.safety, jobs, config.safety, changed);
  const notFoundPage = ctx.pages.html(createElement(NotFoundPage), { title: "Page not found" });
  // Deliveries run in their own worker, never on this thread; a test's clock drives it from here.
  const webhooks = await DeliveryWorker.start(config, clock ?? null, ctx.log);
  const goCounts = new GoCounts();
  const proxies = proxyTrust(config.trustProxy, config.trustedProxies);
  const go = createGoHandler({
    clock: ctx.clock,
    cache: linkCache,
    views,
    counts: goCounts,
    classify: createVisitorClassifier(),
    publicUrl: config.publicUrl,
    proxies,
    notFoundHtml: notFoundPage,
    goneHtml: ctx.pages.html(createElement(GonePage), { title: "Link gone" }),
    unavailableHtml: ctx.pages.html(createElement(UnavailablePage, { message: DATABASE_DOWN_MESSAGE }), {
      title: "Try again soon",
    }),
    extraHeaders: hsts ? { "Strict-Transport-Security": hsts } : {},
    rules: createRuleAnswerer({
      clock: ctx.clock,
      publicUrl: config.publicUrl,
      extraHeaders: hsts ? { "Strict-Transport-Security": hsts } : {},
      expiredHtml: ctx.pages.html(createElement(ExpiredPage), { title: "Link expired" }),
      takeClick: platform.clickCaps.takeClick,
      capReached: (link) => void changes.announceChange(linkChange(link.userSlug, link.linkSlug)),
      countHit: platform.hits.countHit,
    }),
    hosts: domainHosts,
    inspect: (request, link, address) =>
      inspectAnswer(
        db,
        link,
        address,
        request,
        hsts ? { "Strict-Transport-Security": hsts } : {},
        () => new Response(notFoundPage, { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } }),
      ),
  });
  const customHost = createCustomHostRouter({
    hosts: domainHosts,
    cache: linkCache,
    go,
    scheme: new URL(config.publicUrl).protocol,
    extraHeaders: hsts ? { "Strict-Transport-Security": hsts } : {},
  });

  const metrics =
    config.metrics.token !== null || config.metrics.port !== null
      ? new ServerMetrics({
          go: goCounts,
          cache: linkCache,
          views,
          appInFlight: () => pool?.inFlight() ?? 0,
          databasePoolMax: config.postgres?.poolMax ?? null,
          safety: { counts: ctx.safety.counts, state: () => safetyState(db) },
          webhooks: { outcomes: webhooks.outcomes, queue: () => queueStats(db, ctx.clock.now()) },
          images: { budget: ctx.imageBudget, work: ctx.imageWork },
        })
      : null;
  const metricsRoute = metrics && config.metrics.token ? metricsRoutes(metrics, config.metrics.token) : {};

  /** Every answer but /go's: its request id, one log line, and its count and latency. */
  const observed = (
    request: Request,
    requestId: string,
    started: number,
    { response, route, userId }: Facts & { response: Response },
  ): Response => {
    const durationMs = performance.now() - started;
    ctx.log.request({ method: request.method, route, status: response.status, durationMs, requestId, userId });
    metrics?.observeRequest(request.method, route, response.status, durationMs / 1000);
    return withRequestId(response, requestId);
  };
  type RawHandler = (request: Request & { params: any }) => Response | Promise<Response>;
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

  const ready = async () => {
    try {
      // A database that cannot be reached fails within a connection attempt (db/postgres/options.ts).
      await database.ping();
      return Response.json({ ok: true, message: "The database answers" });
    } catch (error) {
      ctx.log.error("health check", error);
      return Response.json(
        { ok: false, message: "The database does not answer" },
        { status: 503, headers: retryAfterHeaders },
      );
    }
  };
  // What the request thread answers itself, without Elysia (no session, no body parsing): docs/decisions/0001, 0006.
  // /go alone is neither logged nor given a request id: it is counted (GoCounts) and must stay that cheap.
  // A missing or malformed Host is refused first, as in `fetch` below: every raw handler may read request.url.
  const rawRoutes = refuseBadHosts(
    {
      ...refuseMalformedPaths({
        "/go/:userSlug/:linkSlug": go.plain,
        "/go/:userSlug/:linkSlug/:version": go.versioned,
      }),
      ...observeAll({
        ...refuseMalformedPaths({
          "/uploads/:name": {
            GET: (request: Request & { params: { name: string } }) => ctx.images.serve(request.params.name!),
          },
          ...(await assetRoutes()),
        }),
        ...metricsRoute,
        // Readiness (docs/self-hosting.md#health-checks): the database must answer. /healthz is the older name.
        "/readyz": { GET: ready },
        "/healthz": { GET: ready },
        // Liveness: the process serves, so /go keeps redirecting from its cache while the database is away.
        "/livez": { GET: () => Response.json({ ok: true, message: "The process serves requests" }) },
      }),
    },
    (answer) => withSecurityHeaders(answer, pageHeaders),
  );
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: config.maxBodyBytes,
    // While the database is away a request may wait for a connection attempt or two (db/postgres/options.ts) before
    // its 503: Bun's default of 10 s would reset the client's connection instead.
    idleTimeout: 30,
    development: false,
    routes: rawRoutes,
    fetch: async (request, server) => {
      const badHost = badHostAnswer(request);
      if (badHost !== null) return withSecurityHeaders(badHost, pageHeaders);
      const onCustomHost = customHost(request, server);
      if (onCustomHost !== null) return onCustomHost;
      const started = performance.now();
      const requestId = requestIdFor(request, config.trustProxy);
      // Found here, where the socket is (honouring TRUST_PROXY), and handed to the app beside the request.
      const origin = { clientAddress: clientIp(request, server, proxies), requestId };
      const answer = await (pool
        ? pool.handle(request, origin)
        : handleNotingFacts(app, new AppRequest(request, undefined, origin)));
      return withSecurityHeaders(observed(request, requestId, started, answer), pageHeaders);
    },
  });
  const privateListeners = startPrivateListeners(config, metrics, domainHosts, ctx.log);

  let stopping: Promise<void> | null = null;
  return {
    url: listenerUrl(config.host, server.port),
    port: server.port!,
    ctx,
    metricsUrl: privateListeners.metricsUrl,
    askUrl: privateListeners.askUrl,
    changed,
    flushViews: () => views.flush(),
    nextWebhookPoll: () => webhooks.nextDrivenPoll(),
    routes: [...listRoutes(rawRoutes), ...app.routes.map((r) => `${r.method} ${r.path}`)],
    askRoutes: privateListeners.askRoutes,
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(sessionSweep);
        linkHealth?.stop();
        stopRecheck();
        stopWatchingHosts();
        stopSafetyWork();
        await Promise.all([server.stop(), webhooks.stop(), privateListeners.stop()]);
        try {
          await pool?.close();
        } finally {
          // Views never pass through the workers: stored whatever happened to them.
          await views.close();
          await ctx.facebook?.settled();
          ctx.images.close();
          await database.close();
        }
      })()),
  };
}
