// The only module that reads process.env: every setting (declared in config/settings.ts) is parsed and checked
// here, once, and turned into the Config the code uses.
import { isIP } from "node:net";
import { availableParallelism, hostname } from "node:os";
import { resolve } from "node:path";
import { parseAliasHosts } from "../links/own-addresses.ts";
import { parseCidrList } from "../safe-fetch/address-policy.ts";
import { parseFeedList, type FeedSource } from "../safety/feeds/formats.ts";
import { shownValue } from "./secret-settings.ts";
import { commaItems, EnvSchema, type ConfigOverrides } from "./settings.ts";
import { linkCacheBudget } from "./link-cache-budget.ts";
import type { Config, S3Settings, UploadsConfig } from "./config-type.ts";

export type { ConfigOverrides } from "./settings.ts";

export type { Config, S3Settings, UploadsConfig };

/** A whole fetch (all hops, headers and body) must finish within this. */
const FETCH_DEADLINE_MS = 8000;

/** A stable slot per machine name, so that nodes on different hosts mostly get different ones. */
function hostSlot(): number {
  let hash = 0;
  for (const char of hostname()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 16;
}

export class ConfigError extends Error {}

/**
 * Where owners point their domains: DOMAIN_CNAME_TARGET and DOMAIN_ADDRESSES; with neither set, PUBLIC_URL's host
 * (its address when it is one), so that the Domains page always names a record to publish.
 */
function domainRouting(publicUrl: string, cnameTarget: string | undefined, addresses: string[]) {
  if (cnameTarget || addresses.length > 0)
    return { cnameTarget: cnameTarget?.toLowerCase().replace(/\.$/, "") ?? null, addresses };
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return isIP(host) !== 0 ? { cnameTarget: null, addresses: [host] } : { cnameTarget: host, addresses: [] };
}

export function loadConfig(
  overrides: ConfigOverrides = {},
  env: Record<string, string | undefined> = process.env,
): Config {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.shape)) raw[key] = env[key];
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) raw[key] = value;
  // An empty variable means "not set", so defaults apply.
  for (const key of Object.keys(raw)) if (raw[key] === "") raw[key] = undefined;

  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "config");
    throw new ConfigError(`Invalid configuration: ${name}=${shownValue(name, raw[name])}: ${issue.message}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  const dataDir = resolve(e.DATA_DIR);
  if (e.GOOGLE_CLIENT_ID && !e.GOOGLE_CLIENT_SECRET) {
    throw new ConfigError("Invalid configuration: GOOGLE_CLIENT_SECRET is required when GOOGLE_CLIENT_ID is set");
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError("Invalid configuration: STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set");
  }
  if (Boolean(e.FACEBOOK_APP_ID) !== Boolean(e.FACEBOOK_APP_SECRET)) {
    throw new ConfigError(
      "Invalid configuration: set both FACEBOOK_APP_ID and FACEBOOK_APP_SECRET (to ask Facebook to re-scrape edited cards), or neither",
    );
  }
  let allowPrivate: string[];
  try {
    allowPrivate = parseCidrList(e.FETCH_ALLOW_PRIVATE).map(([base, bits]) => `${base.toString()}/${bits}`);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: FETCH_ALLOW_PRIVATE=${JSON.stringify(e.FETCH_ALLOW_PRIVATE)}: ${(error as Error).message}`,
    );
  }
  let trustedProxies: string[];
  try {
    trustedProxies = parseCidrList(e.TRUSTED_PROXIES).map(([base, bits]) => `${base.toString()}/${bits}`);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: TRUSTED_PROXIES=${JSON.stringify(e.TRUSTED_PROXIES)}: ${(error as Error).message}`,
    );
  }
  let aliasHosts: string[];
  try {
    aliasHosts = parseAliasHosts(e.ALIAS_HOSTS);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: ALIAS_HOSTS=${JSON.stringify(e.ALIAS_HOSTS)}: ${(error as Error).message}`,
    );
  }
  let feeds: FeedSource[];
  try {
    feeds = parseFeedList(e.THREAT_FEEDS);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: THREAT_FEEDS: ${(error as Error).message}`);
  }
  const uploadsDir = resolve(dataDir, "uploads");
  let uploads: UploadsConfig;
  if (e.UPLOADS_STORE === "s3") {
    for (const name of ["S3_ENDPOINT", "S3_BUCKET", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!e[name]) throw new ConfigError(`Invalid configuration: ${name} is required when UPLOADS_STORE=s3`);
    }
    uploads = {
      kind: "s3",
      endpoint: e.S3_ENDPOINT!.replace(/\/+$/, ""),
      bucket: e.S3_BUCKET!,
      region: e.S3_REGION,
      accessKeyId: e.S3_ACCESS_KEY_ID!,
      secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    };
  } else if (e.UPLOADS_STORE === "db") {
    // SQLite is one node on one disk: its uploads folder is already the store every node (the one) sees.
    if (!e.DATABASE_URL)
      throw new ConfigError(
        "Invalid configuration: UPLOADS_STORE=db stores images in PostgreSQL and needs DATABASE_URL; on SQLite use UPLOADS_STORE=dir",
      );
    uploads = { kind: "db" };
  } else {
    uploads = { kind: "dir", dir: uploadsDir };
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    dbPath: resolve(dataDir, "linkprev.db"),
    postgres: e.DATABASE_URL
      ? {
          url: e.DATABASE_URL,
          poolMax: e.DATABASE_POOL_MAX,
          waitSeconds: e.DATABASE_WAIT_SECONDS,
          nodeSlot: e.NODE_SLOT ?? hostSlot(),
        }
      : null,
    uploadsDir,
    uploads,
    publicUrl,
    publicUrlSet: e.PUBLIC_URL !== undefined,
    aliasHosts,
    images: { pixels: e.IMAGE_PIXEL_BUDGET_MP * 1_000_000, queue: e.IMAGE_QUEUE, deadlineMs: e.IMAGE_DEADLINE_MS },
    secureCookies: publicUrl.startsWith("https://"),
    trustProxy: e.TRUST_PROXY,
    trustedProxies,
    release: e.RELEASE,
    production: e.NODE_ENV === "production",
    viewFlushMs: e.VIEW_FLUSH_MS,
    viewBatchMax: e.VIEW_BATCH_MAX,
    viewSpoolMaxBytes: e.VIEW_SPOOL_MAX_BYTES,
    crawlerReverseDns: e.CRAWLER_RDNS === "on" ? { dnsServers: commaItems(e.DNS_SERVERS) } : null,
    linkCache: linkCacheBudget(e.LINK_CACHE_MB, e.LINK_CACHE_SIZE),
    // One core stays with the request thread (and the view writer); the rest, at most 4, render pages.
    testSlowRouteMs: e.TEST_SLOW_ROUTE_MS,
    viewRetentionMs: e.VIEW_RETENTION_DAYS * 86_400_000,
    viewRetentionEveryMs: e.VIEW_RETENTION_EVERY_MS,
    linkHealth: { everyMs: e.LINK_HEALTH_EVERY_MS, hostGapMs: e.LINK_HEALTH_HOST_GAP_MS },
    testCrashDuringDeleteAfter: e.TEST_CRASH_DURING_DELETE_AFTER,
    appWorkers: e.APP_WORKERS ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
    appWorkerNice: e.APP_WORKER_NICE,
    google: e.GOOGLE_CLIENT_ID
      ? {
          clientId: e.GOOGLE_CLIENT_ID,
          clientSecret: e.GOOGLE_CLIENT_SECRET!,
          authUrl: e.GOOGLE_AUTH_URL,
          tokenUrl: e.GOOGLE_TOKEN_URL,
          userinfoUrl: e.GOOGLE_USERINFO_URL,
        }
      : null,
    stripe: e.STRIPE_SECRET_KEY
      ? {
          secretKey: e.STRIPE_SECRET_KEY,
          webhookSecret: e.STRIPE_WEBHOOK_SECRET!,
          apiUrl: e.STRIPE_API_URL,
          prices: { basic: e.STRIPE_PRICE_BASIC, pro: e.STRIPE_PRICE_PRO, enterprise: e.STRIPE_PRICE_ENTERPRISE },
        }
      : null,
    mail: e.SMTP_URL
      ? { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? `LinkPrev <noreply@${new URL(publicUrl).hostname}>` }
      : null,
    facebook:
      e.FACEBOOK_APP_ID && e.FACEBOOK_APP_SECRET
        ? {
            appId: e.FACEBOOK_APP_ID,
            appSecret: e.FACEBOOK_APP_SECRET,
            graphUrl: e.FACEBOOK_GRAPH_URL.replace(/\/+$/, ""),
          }
        : null,
    businessCountry: e.BUSINESS_COUNTRY,
    viesUrl: e.VIES_URL.replace(/\/+$/, ""),
    viesTimeoutMs: e.VIES_TIMEOUT_MS,
    contactFormUrl: e.CONTACT_FORM_URL,
    socialUrl: e.SOCIAL_URL,
    authRateLimit: e.AUTH_RATE_LIMIT,
    maxBodyBytes: e.MAX_BODY_BYTES,
    fetch: { enabled: !e.FETCH_DISABLED, allowPrivate, deadlineMs: e.TEST_FETCH_DEADLINE_MS || FETCH_DEADLINE_MS },
    webhooks: {
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      pollMs: e.WEBHOOK_POLL_MS,
      clickWindowMs: e.WEBHOOK_CLICK_WINDOW_MS,
      maxPending: e.WEBHOOK_MAX_PENDING,
    },
    metrics: { token: e.METRICS_TOKEN ?? null, host: e.METRICS_HOST, port: e.METRICS_PORT ?? null },
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? "text" : "json"),
    domains: {
      dnsServers: commaItems(e.DNS_SERVERS),
      ...domainRouting(publicUrl, e.DOMAIN_CNAME_TARGET, commaItems(e.DOMAIN_ADDRESSES)),
      askHost: e.TLS_ASK_HOST,
      askPort: e.TLS_ASK_PORT ?? null,
    },
    safety: {
      feeds,
      feedsEveryMs: e.THREAT_FEEDS_EVERY_MS,
      checkRedirects: e.CHECK_TARGET_REDIRECTS,
      webRisk: e.WEB_RISK_API_KEY ? { key: e.WEB_RISK_API_KEY, url: e.WEB_RISK_URL.replace(/\/+$/, "") } : null,
      newAccountHours: e.NEW_ACCOUNT_HOURS,
      newAccountLinks: e.NEW_ACCOUNT_LINKS,
      targetHostLinksPerHour: e.TARGET_HOST_LINKS_PER_HOUR,
    },
  };
}
