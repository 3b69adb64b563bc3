// Starts LinkPrev: database, view writer, link cache, the raw /go route and the Elysia app for the rest.
import { mkdirSync } from "node:fs";
import { createElement } from "react";
import { createApp } from "./app.ts";
import { deleteExpiredSessions } from "./auth/sessions.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { securityHeaders, withSecurityHeaders } from "./http/security-headers.ts";
import type { Config } from "./config.ts";
import type { AppContext } from "./context.ts";
import { openDb } from "./db/connection.ts";
import { applyMigrations } from "./db/migrate.ts";
import { resolveRelease, versionInfo } from "./meta/version.ts";
import { assetRoutes, clientScript, stylesheet } from "./pages/assets.ts";
import { NotFoundPage } from "./pages/not-found.tsx";
import { createPageRenderer } from "./pages/render.tsx";
import { createVisitorClassifier } from "./redirect/classify.ts";
import { createGoHandler } from "./redirect/go.ts";
import { ImageStore } from "./links/images/store.ts";
import { uploadsInUse } from "./links/service.ts";
import { LinkCache } from "./redirect/link-cache.ts";
import { ViewRecorder } from "./redirect/view-recorder.ts";

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
  const { sqlite, db } = openDb(config.dbPath);
  applyMigrations(sqlite);

  const version = versionInfo(resolveRelease(config.release));
  const linkCache = new LinkCache(sqlite, config.linkCacheSize);
  linkCache.warm();
  const views = await ViewRecorder.start(config.dbPath, { flushMs: config.viewFlushMs, batchMax: config.viewBatchMax });
  const pages = createPageRenderer({ version, stylesheet, clientScript, db, billingEnabled: config.stripe !== null });
  const images = new ImageStore(config.uploadsDir);
  const orphans = images.sweepOrphans(uploadsInUse(db));
  if (orphans > 0) console.log(`Removed ${orphans} uploaded image(s) that no link uses (left by an interrupted upload)`);
  const ctx: AppContext = { config, sqlite, db, linkCache, images, version, pages, authLimiter: new RateLimiter(config.authRateLimit) };
  const app = createApp(ctx, await assetRoutes());

  const pageHeaders = securityHeaders(config);
  const hsts = pageHeaders["Strict-Transport-Security"];

  deleteExpiredSessions(db);
  const sessionSweep = setInterval(() => deleteExpiredSessions(db), 3_600_000);
  sessionSweep.unref();
  const go = createGoHandler({
    cache: linkCache,
    views,
    classify: createVisitorClassifier(),
    publicUrl: config.publicUrl,
    trustProxy: config.trustProxy,
    notFoundHtml: pages.html(createElement(NotFoundPage), { title: "Page not found" }),
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
        sqlite.close();
      })()),
  };
}
