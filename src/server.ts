// Starts LinkPrev: database, view writer, link cache, the raw /go route and the Elysia app for the rest.
import { mkdirSync } from "node:fs";
import { createElement } from "react";
import { createApp } from "./app.ts";
import { deleteExpiredSessions } from "./auth/sessions.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { securityHeaders, withSecurityHeaders } from "./http/security-headers.ts";
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import { openEngine } from "./db/engine.ts";
import { resolveRelease, versionInfo } from "./meta/version.ts";
import { assetRoutes, clientScript, stylesheet } from "./pages/assets.ts";
import { NotFoundPage } from "./pages/not-found.tsx";
import { createPageRenderer } from "./pages/render.tsx";
import { createVisitorClassifier } from "./redirect/classify.ts";
import { createGoHandler } from "./redirect/go.ts";
import { openUploadBackend } from "./links/images/backends.ts";
import { ImageStore } from "./links/images/store.ts";
import { uploadsInUse } from "./links/service.ts";
import { LinkCache } from "./redirect/link-cache.ts";
import { ViewRecorder } from "./redirect/view-recorder.ts";

/** How long a /go cache entry is trusted on PostgreSQL without a change notification. */
const LINK_MAX_AGE_MS = 60_000;

/** Nodes sharing an uploads store keep young unreferenced uploads: another node may be committing their link. */
const UPLOAD_GRACE_MS = 3_600_000;

export type RunningServer = {
  url: string;
  port: number;
  ctx: AppContext;
  /** Stores every buffered view now (tests, admin). */
  flushViews: () => Promise<void>;
  /** Every route served, as "METHOD /path" (the authorization matrix test checks each has a row). */
  routes: string[];
  /** Stops accepting requests, stores buffered views, closes the database. */
  stop: () => Promise<void>;
};

export async function startServer(config: Config): Promise<RunningServer> {
  mkdirSync(config.uploadsDir, { recursive: true });
  const engine = await openEngine(config);
  await engine.migrate();
  const db = engine.db;

  const version = versionInfo(resolveRelease(config.release));
  // On PostgreSQL other nodes change links too: entries are re-read after a minute even if a notification
  // was lost; one SQLite process sees every change itself.
  const linkCache = new LinkCache(engine, config.linkCacheSize, engine.kind === "postgres" ? LINK_MAX_AGE_MS : undefined);
  await engine.subscribeLinkChanges(
    (key) => linkCache.invalidate(key),
    () => linkCache.clear(),
  );
  await linkCache.warm();
  const views = await ViewRecorder.start(engine.viewWriter, { flushMs: config.viewFlushMs, batchMax: config.viewBatchMax });
  const pages = createPageRenderer({ version, stylesheet, clientScript, db, billingEnabled: config.stripe !== null });
  const images = new ImageStore(openUploadBackend(config, engine));
  await engine.exclusively("upload-sweep", async () => {
    const orphans = await images.sweepOrphans(await uploadsInUse(db), engine.kind === "postgres" ? UPLOAD_GRACE_MS : 0);
    if (orphans > 0) console.log(`Removed ${orphans} uploaded image(s) that no link uses (left by an interrupted upload)`);
  });
  const ctx: AppContext = { config, engine, db, images, version, pages, authLimiter: new RateLimiter(engine.countHit, config.authRateLimit) };
  const app = createApp(ctx, await assetRoutes());

  const pageHeaders = securityHeaders(config);
  const hsts = pageHeaders["Strict-Transport-Security"];

  // Once per cluster: the sweep is idempotent, but N nodes need not all do it.
  const sweep = () =>
    engine
      .exclusively("session-sweep", async () => {
        await deleteExpiredSessions(db);
      })
      .catch((error) => console.error(`session sweep failed: ${String(error)}`));
  await sweep();
  const sessionSweep = setInterval(sweep, 3_600_000);
  sessionSweep.unref();
  const go = createGoHandler({
    cache: linkCache,
    views,
    classify: createVisitorClassifier(),
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    notFoundHtml: await pages.html(createElement(NotFoundPage), { title: "Page not found" }),
    extraHeaders: hsts ? { "Strict-Transport-Security": hsts } : {},
  });

  // The hot paths, served without Elysia (no session, no body parsing): see docs/decisions/0001.
  const rawRoutes = {
    "/go/:userSlug/:linkSlug": go,
    "/uploads/:name": { GET: (request: Request & { params: { name: string } }) => images.serve(request.params.name) },
  };
  const server = Bun.serve({
    port: config.port,
    hostname: config.host,
    maxRequestBodySize: config.maxBodyBytes,
    development: false,
    routes: rawRoutes,
    fetch: async (request) => withSecurityHeaders(await app.handle(request), pageHeaders),
  });

  let stopping: Promise<void> | null = null;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`,
    port: server.port!,
    ctx,
    flushViews: () => views.flush(),
    routes: [...Object.entries(rawRoutes).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m} ${path}`)), ...app.routes.map((r) => `${r.method} ${r.path}`)],
    stop: () =>
      (stopping ??= (async () => {
        clearInterval(sessionSweep);
        await server.stop();
        await views.close();
        images.close();
        await engine.close();
      })()),
  };
}
