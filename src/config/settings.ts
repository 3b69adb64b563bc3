// The settings LinkPrev reads from the environment (or command-line flags), each with its check and default.
// src/config/config.ts reads them and turns them into the Config the code uses.
import { isIP } from "node:net";
import { z } from "zod";

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== "" ? value.trim() : undefined));

/** A comma-separated setting's items, trimmed, empty ones dropped. */
export const commaItems = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");

const flag = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .optional()
  .transform((value) => value === "true" || value === "1" || value === "yes");

export const EnvSchema = z.object({
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
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: "an http(s) URL such as https://s3.eu-west-1.amazonaws.com" })
    .optional(),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().trim().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  // Image work (docs/decisions/0043): megapixels being decoded at once in this process (12 of them kept for small
  // images, the rest must hold the largest accepted one, 40), images that may wait for their turn (past that, a
  // 503), and how long one codec job may run before its Worker is ended.
  IMAGE_PIXEL_BUDGET_MP: z.coerce.number().int().min(52).max(100_000).default(52),
  IMAGE_QUEUE: z.coerce.number().int().min(0).max(100_000).default(16),
  IMAGE_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Other names this instance answers to (comma-separated host or host:port): links may not target them (loops).
  ALIAS_HOSTS: z.string().default(""),
  TRUST_PROXY: flag,
  // With TRUST_PROXY: comma-separated CIDRs of the proxies in front of ours (a CDN), skipped in X-Forwarded-For.
  TRUSTED_PROXIES: z.string().default(""),
  RELEASE: optionalText,
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  // Views are handed to the writer thread when a VIEW_FLUSH_MS window ends and the writer is free (group
  // commit), or at once when VIEW_BATCH_MAX views are waiting.
  VIEW_FLUSH_MS: z.coerce.number().int().min(5).max(10_000).default(100),
  VIEW_BATCH_MAX: z.coerce.number().int().min(1).max(100_000).default(10_000),
  // Bytes of view batches the database refused that may wait in DATA_DIR's spool; past it views are dropped.
  VIEW_SPOOL_MAX_BYTES: z.coerce.number().int().min(0).default(1_073_741_824),
  // Forward-confirmed reverse DNS for Google, Bing and Apple crawlers outside their lists (docs/verification.md),
  // asked of DNS_SERVERS (unset: the system's) by the view writer. Off unless set: it sends DNS queries.
  CRAWLER_RDNS: z.enum(["on", "off"]).default("off"),
  // Worker threads that run pages, the API, webhooks and sign-in, so that the request thread only answers /go,
  // uploads, assets and /healthz. 0: everything on the request thread.
  APP_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  // The app workers' Linux nice value: when the cores are all busy, /go runs before pages (0: same priority).
  APP_WORKER_NICE: z.coerce.number().int().min(0).max(19).default(5),
  // Tests only: serves GET /api/test/slow, which holds its thread this long (proving /go never waits for pages).
  TEST_SLOW_ROUTE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // Raw view rows (truncated address, User-Agent, referrer) older than this many days are deleted when the view
  // writer is idle; per-day counts stay. 0 keeps them forever. 395 days: 13 months, within CNIL's 25.
  VIEW_RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(395),
  // How often the view writer looks for expired raw views (tests shorten it).
  VIEW_RETENTION_EVERY_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
  // How often every live link's target is checked (src/rules/health.ts); 0 turns the checks off.
  LINK_HEALTH_EVERY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400_000)
    .default(86_400_000),
  // The pause between two checks of targets on one host, so that a host with many links is asked politely.
  LINK_HEALTH_HOST_GAP_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  // Tests only: an account deletion kills the process (as kill -9 would) right after this step.
  TEST_CRASH_DURING_DELETE_AFTER: optionalText,
  // Memory for the /go link cache, in MB (src/link-cache/link-cache.ts); unset: a sixteenth of the machine's
  // memory, between 32 MB and 1 GB.
  LINK_CACHE_MB: z.coerce.number().int().min(1).max(1_000_000).optional(),
  // Deprecated (a number of links): read as LINK_CACHE_MB at 2 KB a link when LINK_CACHE_MB is unset.
  LINK_CACHE_SIZE: z.coerce.number().int().min(100).max(10_000_000).optional(),
  // Google sign-in; without a client id the server offers one-time sign-in links instead.
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_AUTH_URL: z.url().default("https://accounts.google.com/o/oauth2/v2/auth"),
  GOOGLE_TOKEN_URL: z.url().default("https://oauth2.googleapis.com/token"),
  GOOGLE_USERINFO_URL: z.url().default("https://openidconnect.googleapis.com/v1/userinfo"),
  // Outgoing mail (sign-in links, workspace invites): an smtp:// or smtps:// URL with its credentials, and the
  // sender. Unset: nothing is e-mailed (invites are copied by hand, sign-in links made with the admin command).
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "an smtp:// or smtps:// URL such as smtps://user:pass@smtp.example.com:465")
    .refine((value) => URL.canParse(value), "not a valid URL")
    .optional(),
  MAIL_FROM: optionalText,
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
  FACEBOOK_GRAPH_URL: z
    .url({ protocol: /^https?$/, error: "an http(s) URL such as https://graph.facebook.com" })
    .default("https://graph.facebook.com"),
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
  MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(6 * 1024 * 1024),
  // Auto-fill from the target page and image import (src/safe-fetch): off switch, and private ranges it may reach.
  FETCH_DISABLED: flag,
  FETCH_ALLOW_PRIVATE: z.string().default(""),
  // Tests only: a shorter deadline for a whole fetch than the real 8 s (the slow-page test need not wait 8 s).
  TEST_FETCH_DEADLINE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  // Webhooks (docs/api.md#webhooks): the first retry's delay, which scales the whole schedule (5 s, 1 min, 10 min,
  // 1 h, 6 h, 24 h); how long one attempt may take; how often due deliveries are looked for; and at most one
  // link.clicked event per link per window.
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).max(3_600_000).default(5000),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  WEBHOOK_CLICK_WINDOW_MS: z.coerce.number().int().min(100).max(86_400_000).default(60_000),
  // Deliveries that may wait for one endpoint (hanging, paused or flooded); newer ones past it are marked failed.
  WEBHOOK_MAX_PENDING: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  // GET /metrics (Prometheus): on the main port with this bearer token, and/or on a listener of its own.
  METRICS_TOKEN: optionalText.pipe(z.string().min(16, "at least 16 characters").optional()),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // Custom domains (src/domains/): the DNS servers verification asks (comma-separated ip or ip:port; unset: the
  // system's), where owners point their hosts (a CNAME target, and/or comma-separated IPv4/IPv6 addresses for an apex).
  DNS_SERVERS: z
    .string()
    .default("")
    .refine(
      (value) =>
        commaItems(value).every(
          (item) => isIP(item.replace(/^\[(.+)\](:\d+)?$/, "$1").replace(/^([\d.]+):\d+$/, "$1")) !== 0,
        ),
      "comma-separated ip or ip:port ([v6]:port)",
    ),
  DOMAIN_CNAME_TARGET: optionalText,
  DOMAIN_ADDRESSES: z
    .string()
    .default("")
    .refine((value) => commaItems(value).every((item) => isIP(item) !== 0), "comma-separated IPv4 and IPv6 addresses"),
  // Caddy's on-demand TLS check (GET /tls/ask?domain=NAME) on a listener of its own; unset: none; 0: any free port.
  TLS_ASK_HOST: z.string().min(1).default("127.0.0.1"),
  TLS_ASK_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  // Trust and safety (docs/configuration.md#trust-and-safety): threat feeds as `format:location` (urlhaus, phishtank,
  // openphish, hosts; a file or an http(s) URL), re-read this often; each hop of a target's redirects checked too.
  THREAT_FEEDS: z.string().default(""),
  THREAT_FEEDS_EVERY_MS: z.coerce.number().int().min(1000).max(604_800_000).default(3_600_000),
  CHECK_TARGET_REDIRECTS: flag,
  // Google Web Risk Lookup API (uris.search); WEB_RISK_URL points at a fake in tests.
  WEB_RISK_API_KEY: optionalText,
  WEB_RISK_URL: z.url({ protocol: /^https?$/ }).default("https://webrisk.googleapis.com"),
  // Abuse brakes (0 turns each off): links an account younger than NEW_ACCOUNT_HOURS may create, and new links
  // to one target host per account per hour.
  NEW_ACCOUNT_HOURS: z.coerce.number().int().min(0).max(8760).default(24),
  NEW_ACCOUNT_LINKS: z.coerce.number().int().min(0).max(1_000_000).default(10),
  TARGET_HOST_LINKS_PER_HOUR: z.coerce.number().int().min(0).max(1_000_000).default(30),
  // One line per request (and errors): json for log collectors, text for people; default text on a terminal.
  // off: no request lines (errors are still written, as text).
  LOG_FORMAT: z.enum(["json", "text", "off"], "json, text or off").optional(),
});

/** Overrides come from command-line flags and win over the environment. */
export type ConfigOverrides = Partial<Record<keyof z.input<typeof EnvSchema>, string>>;
