// The only module that reads process.env: every setting is parsed and checked here, once.
import { z } from "zod";
import { availableParallelism, hostname } from "node:os";
import { resolve } from "node:path";
import { parseAliasHosts } from "./links/own-addresses.ts";
import { parseCidrList } from "./safe-fetch/address-policy.ts";

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== "" ? value.trim() : undefined));

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .optional()
  .transform((value) => value === "true" || value === "1" || value === "yes");

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATA_DIR: z.string().min(1).default("./data"),
  // Unset: SQLite in DATA_DIR. Set: PostgreSQL, for several LinkPrev nodes on one database.
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/[^\s]+$/, "a postgres:// or postgresql:// URL (add ?host=/socket/dir for a Unix socket)")
    .refine((value) => URL.canParse(value), "not a valid URL")
    .optional(),
  // Connections per node for requests; each node also holds one for the view writer and one for LISTEN.
  // At least 2: a cluster-wide job holds one connection for its lock while its queries use another.
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(500).default(5),
  // How long start-up keeps retrying an unreachable database (nodes may start before it).
  DATABASE_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  // This node's rollup slot on PostgreSQL, so that nodes never wait on each other's counter rows.
  NODE_SLOT: z.coerce.number().int().min(0).max(255).optional(),
  // Where uploaded images live: files in DATA_DIR/uploads (one node, or a shared mount), S3-compatible object
  // storage, or the PostgreSQL database itself. Every node must see the same store.
  UPLOADS_STORE: z.enum(["dir", "s3", "db"], "dir, s3 or db").default("dir"),
  // S3-compatible storage (AWS S3, Cloudflare R2, MinIO, …), path-style requests: used when UPLOADS_STORE=s3.
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "an http(s) URL such as https://s3.eu-west-1.amazonaws.com" }).optional(),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Other names this instance answers to (comma-separated host or host:port): links may not target them (loops).
  ALIAS_HOSTS: z.string().default(""),
  TRUST_PROXY: flag,
  RELEASE: optionalText,
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // Views are handed to the writer thread when a VIEW_FLUSH_MS window ends and the writer is free (group
  // commit), or at once when VIEW_BATCH_MAX views are waiting.
  VIEW_FLUSH_MS: z.coerce.number().int().min(5).max(10_000).default(100),
  VIEW_BATCH_MAX: z.coerce.number().int().min(1).max(100_000).default(10_000),
  // Worker threads that run pages, the API, webhooks and sign-in, so that the request thread only answers /go,
  // uploads, assets and /healthz. 0: everything on the request thread.
  APP_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  // Tests only: serves GET /api/test/slow, which holds its thread this long (proving /go never waits for pages).
  TEST_SLOW_ROUTE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // Raw view rows (truncated address, User-Agent, referrer) older than this many days are deleted when the view
  // writer is idle; per-day counts stay. 0 keeps them forever. 395 days: 13 months, within CNIL's 25.
  VIEW_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(395),
  // How often the view writer looks for expired raw views (tests shorten it).
  VIEW_RETENTION_EVERY_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  // Tests only: an account deletion kills the process (as kill -9 would) right after this step.
  TEST_CRASH_DURING_DELETE_AFTER: optionalText,
  // Links kept in memory for /go (a few KB each with the rendered card); a miss is a SQLite read.
  LINK_CACHE_SIZE: z.coerce.number().int().min(100).max(10_000_000).default(10_000),
  // Google sign-in; without a client id the server offers one-time sign-in links instead.
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_AUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_USERINFO_URL: z.url().default("https://openidconnect.googleapis.com/v1/userinfo"),
  // Stripe; without a secret key billing is off and everyone gets enterprise limits.
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  STRIPE_API_URL: z.url().default("https://api.stripe.com"),
  STRIPE_PRICE_BASIC: z.string().default("price_basic"),
  STRIPE_PRICE_PRO: z.string().default("price_pro"),
  STRIPE_PRICE_ENTERPRISE: z.string().default("price_enterprise"),
  // Facebook app credentials: with both set, a saved card change and a new version ask Facebook to scrape the short
  // URL again (Graph API scrape=true). FACEBOOK_GRAPH_URL points at a fake in tests.
  FACEBOOK_APP_ID: optionalText,
  FACEBOOK_APP_SECRET: optionalText,
  FACEBOOK_GRAPH_URL: z.url({ protocol: /^https?$/, error: "an http(s) URL such as https://graph.facebook.com" }).default("https://graph.facebook.com"),
  BUSINESS_COUNTRY: z
    .string()
    .regex(/^[A-Z]{2}$/, "a two-letter country code such as PT")
    .default("PT"),
  VIES_URL: z.url().default("https://ec.europa.eu/taxation_customs/vies/rest-api"),
  VIES_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(8000),
  CONTACT_FORM_URL: z.url().default("https://forms.gle/linkprev-support"),
  SOCIAL_URL: z.url().default("https://x.com/linkprev"),
  // Requests per minute per IP on sign-in and token endpoints.
  AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(6 * 1024 * 1024),
  // Auto-fill from the target page and image import (src/safe-fetch): off switch, and private ranges it may reach.
  FETCH_DISABLED: flag,
  FETCH_ALLOW_PRIVATE: z.string().default(""),
  // Tests only: a shorter deadline for a whole fetch than the real 8 s (the slow-page test need not wait 8 s).
  TEST_FETCH_DEADLINE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // GET /metrics (Prometheus): on the main port with this bearer token, and/or on a listener of its own.
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, "at least 16 characters").optional()),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // One line per request (and errors): json for log collectors, text for people; default text on a terminal.
  // off: no request lines (errors are still written, as text).
  LOG_FORMAT: z.enum(["json", "text", "off"], "json, text or off").optional(),
});

export type S3Settings = { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };

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
  publicUrl: string;
  /** ALIAS_HOSTS: other names of this instance ("host" or "host:port"), refused as link targets. */
  aliasHosts: string[];
  secureCookies: boolean;
  trustProxy: boolean;
  release: string | undefined;
  production: boolean;
  viewFlushMs: number;
  viewBatchMax: number;
  linkCacheSize: number;
  appWorkers: number;
  testSlowRouteMs: number;
  /** VIEW_RETENTION_DAYS in milliseconds; 0 = keep raw views forever. */
  viewRetentionMs: number;
  viewRetentionEveryMs: number;
  testCrashDuringDeleteAfter: string | undefined;
  google: { clientId: string; clientSecret: string; authUrl: string; tokenUrl: string; userinfoUrl: string } | null;
  stripe: {
    secretKey: string;
    webhookSecret: string;
    apiUrl: string;
    prices: { basic: string; pro: string; enterprise: string };
  } | null;
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
  /** GET /metrics: with `token` on the main port, and/or without one on a listener of its own (`port`). */
  metrics: { token: string | null; host: string; port: number | null };
  logFormat: "json" | "text" | "off";
};

/** A whole fetch (all hops, headers and body) must finish within this. */
const FETCH_DEADLINE_MS = 8000;

/** A stable slot per machine name, so that nodes on different hosts mostly get different ones. */
function hostSlot(): number {
  let hash = 0;
  for (const char of hostname()) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % 16;
}

/** Settings whose values are never printed, not even when they are invalid. */
const SECRET_SETTINGS = new Set(["METRICS_TOKEN", "DATABASE_URL", "GOOGLE_CLIENT_SECRET", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "S3_SECRET_ACCESS_KEY", "FACEBOOK_APP_SECRET"]);

export class ConfigError extends Error {}

/** Overrides come from command-line flags and win over the environment. */
export type ConfigOverrides = Partial<Record<keyof z.input<typeof EnvSchema>, string>>;

export function loadConfig(overrides: ConfigOverrides = {}, env: Record<string, string | undefined> = process.env): Config {
  const raw: Record<string, string | undefined> = {};
  for (const key of Object.keys(EnvSchema.shape)) raw[key] = env[key];
  for (const [key, value] of Object.entries(overrides)) if (value !== undefined) raw[key] = value;
  // An empty variable means "not set", so defaults apply.
  for (const key of Object.keys(raw)) if (raw[key] === "") raw[key] = undefined;

  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "config");
    const shown = SECRET_SETTINGS.has(name) ? "(not shown: it holds a secret)" : JSON.stringify(raw[name] ?? "");
    throw new ConfigError(`Invalid configuration: ${name}=${shown}: ${issue.message}`);
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
    throw new ConfigError("Invalid configuration: set both FACEBOOK_APP_ID and FACEBOOK_APP_SECRET (to ask Facebook to re-scrape edited cards), or neither");
  }
  let allowPrivate: string[];
  try {
    allowPrivate = parseCidrList(e.FETCH_ALLOW_PRIVATE).map(([base, bits]) => `${base.toString()}/${bits}`);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: FETCH_ALLOW_PRIVATE=${JSON.stringify(e.FETCH_ALLOW_PRIVATE)}: ${(error as Error).message}`);
  }
  let aliasHosts: string[];
  try {
    aliasHosts = parseAliasHosts(e.ALIAS_HOSTS);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ALIAS_HOSTS=${JSON.stringify(e.ALIAS_HOSTS)}: ${(error as Error).message}`);
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
    if (!e.DATABASE_URL) throw new ConfigError("Invalid configuration: UPLOADS_STORE=db stores images in PostgreSQL and needs DATABASE_URL; on SQLite use UPLOADS_STORE=dir");
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
      ? { url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX, waitSeconds: e.DATABASE_WAIT_SECONDS, nodeSlot: e.NODE_SLOT ?? hostSlot() }
      : null,
    uploadsDir,
    uploads,
    publicUrl,
    aliasHosts,
    secureCookies: publicUrl.startsWith("https://"),
    trustProxy: e.TRUST_PROXY,
    release: e.RELEASE,
    production: e.NODE_ENV === "production",
    viewFlushMs: e.VIEW_FLUSH_MS,
    viewBatchMax: e.VIEW_BATCH_MAX,
    linkCacheSize: e.LINK_CACHE_SIZE,
    // One core stays with the request thread (and the view writer); the rest, at most 4, render pages.
    testSlowRouteMs: e.TEST_SLOW_ROUTE_MS,
    viewRetentionMs: e.VIEW_RETENTION_DAYS * 86_400_000,
    viewRetentionEveryMs: e.VIEW_RETENTION_EVERY_MS,
    testCrashDuringDeleteAfter: e.TEST_CRASH_DURING_DELETE_AFTER,
    appWorkers: e.APP_WORKERS ?? Math.min(4, Math.max(1, availableParallelism() - 1)),
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
    facebook:
      e.FACEBOOK_APP_ID && e.FACEBOOK_APP_SECRET
        ? { appId: e.FACEBOOK_APP_ID, appSecret: e.FACEBOOK_APP_SECRET, graphUrl: e.FACEBOOK_GRAPH_URL.replace(/\/+$/, "") }
        : null,
    businessCountry: e.BUSINESS_COUNTRY,
    viesUrl: e.VIES_URL.replace(/\/+$/, ""),
    viesTimeoutMs: e.VIES_TIMEOUT_MS,
    contactFormUrl: e.CONTACT_FORM_URL,
    socialUrl: e.SOCIAL_URL,
    authRateLimit: e.AUTH_RATE_LIMIT,
    maxBodyBytes: e.MAX_BODY_BYTES,
    fetch: { enabled: !e.FETCH_DISABLED, allowPrivate, deadlineMs: e.TEST_FETCH_DEADLINE_MS || FETCH_DEADLINE_MS },
    metrics: { token: e.METRICS_TOKEN ?? null, host: e.METRICS_HOST, port: e.METRICS_PORT ?? null },
    logFormat: e.LOG_FORMAT ?? (process.stdout.isTTY ? "text" : "json"),
  };
}
