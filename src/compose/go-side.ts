// The /go side of the request thread, composed from the services (src/services.ts): the link cache and the custom
// domains' host map (both kept current by the change bus), the view recorder, the go handler with what it runs of
// the rules, and the custom-host router. Nothing here answers pages or the API (src/app.ts).
import { createElement } from "react";
import type { Config } from "../config/config.ts";
import { linkChange, type Change } from "../db/change.ts";
import type { Platform } from "../db/ports.ts";
import { DomainHosts } from "../domains/host-map.ts";
import { proxyTrust } from "../http/client-ip.ts";
import { DATABASE_DOWN_MESSAGE } from "../http/database-down.ts";
import { securityHeaders } from "../http/security-headers.ts";
import { ExpiredPage, GonePage, NotFoundPage, UnavailablePage } from "../pages/not-found.tsx";
import { createVisitorClassifier } from "../go/classify.ts";
import { createCustomHostRouter } from "../go/custom-host.ts";
import { createGoHandler } from "../go/go.ts";
import { GoCounts } from "../go/go-answer.ts";
import { LinkCache } from "../link-cache/link-cache.ts";
import type { Logger } from "../observability/log.ts";
import { ViewRecorder } from "../views/view-recorder.ts";
import { createRuleAnswerer } from "../go/rule-answer.ts";
import { inspectAnswer } from "../safety/inspect.ts";
import type { Services } from "../services.ts";

/** How long a /go cache entry is trusted on PostgreSQL without a change notification. */
const LINK_MAX_AGE_MS = 60_000;

export type GoSide = Awaited<ReturnType<typeof composeGoSide>>;

export async function composeGoSide(config: Config, platform: Platform, services: Services) {
  const { database, changes } = platform;
  // What every /go answer carries of the pages' headers: HSTS, when they send it.
  const hsts = securityHeaders(config)["Strict-Transport-Security"];
  const extraHeaders: Record<string, string> = hsts ? { "Strict-Transport-Security": hsts } : {};
  const { clock, pages } = services;
  // On PostgreSQL other nodes change links too: entries are re-read after a minute even if a notification
  // was lost; one SQLite process sees every change itself.
  const cache = new LinkCache(
    platform.goLinks,
    config.linkCache.bytes,
    clock,
    services.log,
    database.kind === "postgres" ? LINK_MAX_AGE_MS : undefined,
  );
  // Custom domains by host (src/domains/host-map.ts): reloaded on a domain change, like links on theirs.
  const hosts = new DomainHosts(
    () => database.db,
    services.billingEnabled,
    () => clock.now(),
    services.log,
  );
  const changed = (change: Change) => {
    cache.invalidate(change);
    hosts.onChange(change);
  };
  await changes.subscribeChanges(changed, () => {
    cache.clear();
    hosts.reloadInBackground();
  });
  await warm(config, cache, services.log);
  await hosts.reload();
  const views = await ViewRecorder.start(platform.viewWriter, {
    flushMs: config.viewFlushMs,
    batchMax: config.viewBatchMax,
    retention: { maxAgeMs: config.viewRetentionMs, everyMs: config.viewRetentionEveryMs },
    spool: { dir: config.dataDir, maxBytes: config.viewSpoolMaxBytes },
    clickWindowMs: config.webhooks.clickWindowMs,
    reverseDns: config.crawlerReverseDns,
    log: services.log,
    logFormat: config.logFormat,
  });
  const counts = new GoCounts();
  const notFoundHtml = pages.html(createElement(NotFoundPage), { title: "Page not found" });
  const notFound = () =>
    new Response(notFoundHtml, { status: 404, headers: { "Content-Type": "text/html; charset=utf-8" } });
  const go = createGoHandler({
    clock,
    cache,
    views,
    counts,
    classify: createVisitorClassifier(),
    publicUrl: config.publicUrl,
    proxies: proxyTrust(config.trustProxy, config.trustedProxies),
    notFoundHtml,
    goneHtml: pages.html(createElement(GonePage), { title: "Link gone" }),
    unavailableHtml: pages.html(createElement(UnavailablePage, { message: DATABASE_DOWN_MESSAGE }), {
      title: "Try again soon",
    }),
    extraHeaders,
    rules: createRuleAnswerer({
      clock,
      publicUrl: config.publicUrl,
      extraHeaders,
      expiredHtml: pages.html(createElement(ExpiredPage), { title: "Link expired" }),
      takeClick: platform.clickCaps.takeClick,
      capReached: (link) => void changes.announceChange(linkChange(link.userSlug, link.linkSlug)),
      countHit: platform.hits.countHit,
    }),
    hosts,
    inspect: (request, link, address) => inspectAnswer(database.db, link, address, request, extraHeaders, notFound),
  });
  const customHost = createCustomHostRouter({
    hosts,
    cache,
    go,
    scheme: new URL(config.publicUrl).protocol,
    extraHeaders,
  });
  return { cache, hosts, changed, views, counts, go, customHost };
}

/** Fills the link cache before the server listens, and says how far it got. */
async function warm(config: Config, cache: LinkCache, log: Logger): Promise<void> {
  if (config.linkCache.deprecation) log.warn(config.linkCache.deprecation);
  const warming = performance.now();
  const warmed = await cache.warm((held) =>
    log.info(
      `Link cache: ${held} links held, ${Math.round(cache.bytes / 2 ** 20)} MB, filled in ${Math.round(performance.now() - warming)} ms`,
    ),
  );
  log.info(
    `Link cache: ${Math.round(config.linkCache.bytes / 2 ** 20)} MB (${config.linkCache.source}); ${warmed} links held at start, ` +
      `${Math.round(cache.filterBytes / 2 ** 20)} MB address filter, in ${Math.round(performance.now() - warming)} ms`,
  );
}
