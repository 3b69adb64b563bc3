// The Config the code uses, as src/config/config.ts builds it from the environment.
import type { FeedSource } from "../safety/feeds/formats.ts";
import type { LinkCacheBudget } from "./link-cache-budget.ts";

export type S3Settings = {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
};

export type UploadsConfig = { kind: "dir"; dir: string } | ({ kind: "s3" } & S3Settings) | { kind: "db" };

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  dbPath: string;
  /** null: SQLite at dbPath. */
  postgres: { url: string; poolMax: number; waitSeconds: number; nodeSlot: number } | null;
  /** DATA_DIR/uploads: the files of the `dir` store, and what `admin copy-to-postgres` copies from. */
  uploadsDir: string;
  /** Where uploaded images are stored and served from (UPLOADS_STORE). */
  uploads: UploadsConfig;
  /** Image work: pixels decoded at once (the process's budget), images that may wait for it, one job's deadline. */
  images: { pixels: number; queue: number; deadlineMs: number };
  publicUrl: string;
  /** Whether PUBLIC_URL was set (else publicUrl is this node's own localhost address). */
  publicUrlSet: boolean;
  /** ALIAS_HOSTS: other names of this instance ("host" or "host:port"), refused as link targets. */
  aliasHosts: string[];
  secureCookies: boolean;
  trustProxy: boolean;
  /** TRUSTED_PROXIES: checked CIDR texts of the proxies in front of ours, whose X-Forwarded-For hops are skipped. */
  trustedProxies: string[];
  release: string | undefined;
  production: boolean;
  viewFlushMs: number;
  viewBatchMax: number;
  viewSpoolMaxBytes: number;
  /** Forward-confirmed reverse DNS of crawlers in the view writer, asking these servers (empty: the system's); null: off. */
  crawlerReverseDns: { dnsServers: string[] } | null;
  /** The /go link cache's memory budget, and where it came from (printed at start). */
  linkCache: LinkCacheBudget;
  appWorkers: number;
  /** The app workers' nice value (src/threads/thread-priority.ts); 0 leaves them at the request thread's priority. */
  appWorkerNice: number;
  testSlowRouteMs: number;
  /** VIEW_RETENTION_DAYS in milliseconds; 0 = keep raw views forever. */
  viewRetentionMs: number;
  viewRetentionEveryMs: number;
  /** LINK_HEALTH_EVERY_MS (0: off) and LINK_HEALTH_HOST_GAP_MS. */
  linkHealth: { everyMs: number; hostGapMs: number };
  testCrashDuringDeleteAfter: string | undefined;
  google: { clientId: string; clientSecret: string; authUrl: string; tokenUrl: string; userinfoUrl: string } | null;
  stripe: {
    secretKey: string;
    webhookSecret: string;
    apiUrl: string;
    prices: { basic: string; pro: string; enterprise: string };
  } | null;
  /** SMTP_URL and MAIL_FROM (src/mail/); null: nothing is e-mailed. */
  mail: { smtpUrl: string; from: string } | null;
  /** null: Facebook is never asked to re-scrape. */
  facebook: { appId: string; appSecret: string; graphUrl: string } | null;
  businessCountry: string;
  viesUrl: string;
  viesTimeoutMs: number;
  contactFormUrl: string;
  socialUrl: string;
  authRateLimit: number;
  maxBodyBytes: number;
  /**
   * The safe fetcher behind auto-fill and image import; `enabled` is what the editor shows its button by.
   * `allowPrivate`: checked CIDR texts (plain strings: the config is posted to app workers).
   */
  fetch: { enabled: boolean; allowPrivate: string[]; deadlineMs: number };
  /**
   * Webhook delivery (src/webhooks/): retry schedule's first delay, attempt timeout, poll period, link.clicked window,
   * and the deliveries that may wait for one endpoint.
   */
  webhooks: { retryBaseMs: number; timeoutMs: number; pollMs: number; clickWindowMs: number; maxPending: number };
  /** GET /metrics: with `token` on the main port, and/or without one on a listener of its own (`port`). */
  metrics: { token: string | null; host: string; port: number | null };
  logFormat: "json" | "text" | "off";
  /** Custom domains: the resolvers verification asks (empty: the system's), the records owners publish, the TLS ask listener. */
  domains: {
    dnsServers: string[];
    cnameTarget: string | null;
    addresses: string[];
    askHost: string;
    askPort: number | null;
  };
  /** Threat feeds, Web Risk and the abuse brakes (src/safety/); each limit 0 = off. */
  safety: {
    feeds: FeedSource[];
    feedsEveryMs: number;
    checkRedirects: boolean;
    webRisk: { key: string; url: string } | null;
    newAccountHours: number;
    newAccountLinks: number;
    targetHostLinksPerHour: number;
  };
};
