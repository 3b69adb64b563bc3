// What the HTTP modules are built from: plain values and services, created once at start, on the request
// thread (APP_WORKERS=0) or in each app worker.
import type { Config } from "./config.ts";
import type { ChangeBus, Database, Db, HitCounter, Platform } from "./db/ports.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { openUploadBackend, type UploadRelay } from "./links/images/backends.ts";
import { ImageStore } from "./links/images/store.ts";
import { createLogger, type Logger } from "./observability/log.ts";
import { resolveRelease, versionInfo, type VersionInfo } from "./meta/version.ts";
import { FacebookRescraper } from "./previews/facebook-scrape.ts";
import { clientScript, stylesheet } from "./pages/assets.ts";
import { createPageRenderer, type PageRenderer } from "./pages/render.tsx";
import { SafeFetcher } from "./safe-fetch/fetcher.ts";

/**
 * The client's address for a request, as the request thread found it (the app has no socket to ask): the rate
 * limiter keys on it; nothing stores it (PostgreSQL's rate_limits holds a hash, for one minute).
 */
export type ClientAddress = (request: Request) => string;

export type AppContext = {
  config: Config;
  database: Database;
  /** database.db: what services query. */
  db: Db;
  changes: ChangeBus;
  hits: HitCounter;
  images: ImageStore;
  version: VersionInfo;
  pages: PageRenderer;
  /** Shared by the sign-in, sign-in link and token endpoints. */
  authLimiter: RateLimiter;
  clientAddress: ClientAddress;
  /** Asks Facebook to re-scrape edited cards (FACEBOOK_APP_ID); null when not configured. */
  facebook: FacebookRescraper | null;
  /** Fetches pages (auto-fill) and images (import) that users name; null when FETCH_DISABLED. */
  fetcher: SafeFetcher | null;
  log: Logger;
};

/** Honest: names us and where to read about us. */
export const fetcherUserAgent = (publicUrl: string) => `LinkPrevBot/1.0 (+${publicUrl})`;

/** `uploadRelay`: in an app worker, how the request thread hears of the uploads it stores and removes. */
export function createAppContext(config: Config, platform: Platform, clientAddress: ClientAddress, uploadRelay?: UploadRelay): AppContext {
  const version = versionInfo(resolveRelease(config.release));
  const { database, changes, hits } = platform;
  return {
    config,
    database,
    db: database.db,
    changes,
    hits,
    images: new ImageStore(openUploadBackend(config, platform.uploads, uploadRelay)),
    version,
    pages: createPageRenderer({ version, stylesheet, clientScript, db: database.db, billingEnabled: config.stripe !== null }),
    authLimiter: new RateLimiter(hits.countHit, config.authRateLimit),
    clientAddress,
    facebook: config.facebook ? new FacebookRescraper(config.facebook) : null,
    fetcher: config.fetch.enabled
      ? new SafeFetcher({ allowPrivate: config.fetch.allowPrivate, deadlineMs: config.fetch.deadlineMs, userAgent: fetcherUserAgent(config.publicUrl) })
      : null,
    log: createLogger(config.logFormat),
  };
}
