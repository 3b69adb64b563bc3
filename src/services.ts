// The composition root: builds every service once per thread (the request thread, each app worker) from the config
// and the database platform. Routes and pages receive what they need from here; nothing else builds a service. The
// request thread's own parts (the /go side, its listeners) are composed from these in src/compose/.
import { type DeletionDeps } from "./account/deletion.ts";
import { removeWorkspace } from "./account/workspace-removal.ts";
import type { BillingDeps } from "./billing/deps.ts";
import { createStripe, type StripeClient } from "./billing/stripe.ts";
import { validateVat } from "./billing/vat.ts";
import { systemClock, type Clock } from "./clock.ts";
import { isBillingEnabled, safeFetcher } from "./compose/every-thread.ts";
import type { Config } from "./config/config.ts";
import type { ChangeBus, Database, Db, HitCounter, Platform } from "./db/ports.ts";
import { CHECKS_PER_MINUTE, type DomainDeps } from "./domains/deps.ts";
import { isServedHostname } from "./domains/queries.ts";
import { udpResolver } from "./safe-fetch/dns-resolver.ts";
import { RateLimiter } from "./http/rate-limit.ts";
import { openUploadBackend, type UploadRelay } from "./links/images/backends.ts";
import { ImageStore } from "./links/images/store.ts";
import { RECYCLE_PIXELS } from "./links/images/codec-workers.ts";
import { PixelBudget, type PixelGate } from "./links/images/pixel-budget.ts";
import { ImageWorkCounts, type ImageWorkEvent } from "./links/images/work-counts.ts";
import { ownAddresses } from "./links/own-addresses.ts";
import type { LinkDeps } from "./links/deps.ts";
import { FETCHES_PER_MINUTE } from "./links/metadata.ts";
import type { MemberDeps } from "./members/deps.ts";
import { LOGIN_MAILS_PER_HOUR } from "./auth/login-link-mail.ts";
import { smtpMailer, type Mailer } from "./mail/mailer.ts";
import { createLogger, type Logger } from "./observability/log.ts";
import { resolveRelease, versionInfo, type VersionInfo } from "./meta/version.ts";
import { FacebookRescraper } from "./previews/facebook-scrape.ts";
import { clientScript, stylesheet } from "./pages/assets.ts";
import { createPageRenderer, type PageRenderer } from "./pages/render.tsx";
import { safetyDeps, type SafetyCountsRelay, type SafetyDeps } from "./safety/deps.ts";
import { REPORTS_PER_HOUR } from "./safety/reports.ts";
import { SENDS_PER_MINUTE, webhookDeps, type WebhookDeps } from "./webhooks/deps.ts";
import type { WorkspaceDeps } from "./workspaces/deps.ts";

/** In an app worker: where the counts it takes go (the request thread's /metrics), given at construction. */
export type CountsRelay = { safety: SafetyCountsRelay; imageWork: (event: ImageWorkEvent) => void };

/** The names a custom domain may not take (nor any name under them): this instance's own, as hostnames are stored. */
const ownHostnames = (config: Config) =>
  [
    new URL(config.publicUrl).hostname,
    ...config.aliasHosts.map((entry) => new URL(`http://${entry}`).hostname),
    config.domains.cnameTarget,
  ]
    .filter((host): host is string => host !== null)
    .map((host) => host.replace(/\.$/, ""));

/** A target on this instance, by name or address, or on a custom domain it serves: a loop. */
function leadsHere(config: Config, db: Db) {
  const own = ownAddresses({
    publicUrl: config.publicUrl,
    aliasHosts: config.aliasHosts,
    port: config.port,
    listenHost: config.host,
  });
  return async (url: URL) => own(url) || (await isServedHostname(db, url.hostname));
}

export type Services = {
  config: Config;
  database: Database;
  /** database.db: what services query. */
  db: Db;
  changes: ChangeBus;
  hits: HitCounter;
  /** Whether Stripe is configured (STRIPE_*): without it everyone has enterprise limits (self-hosting). */
  billingEnabled: boolean;
  images: ImageStore;
  /** The process's image budget (app workers use the request thread's through imageGate calls). */
  imageGate: PixelGate;
  /** This thread's own budget, for /metrics: null in an app worker. */
  imageBudget: PixelBudget | null;
  /** Image jobs the limits refused or ended (an app worker forwards its own to the request thread). */
  imageWork: ImageWorkCounts;
  version: VersionInfo;
  pages: PageRenderer;
  /** Shared by the sign-in, sign-in link and token endpoints. */
  authLimiter: RateLimiter;
  /** Outside fetches (auto-fill, image imports and uploads) per user: FETCHES_PER_MINUTE. */
  fetchLimiter: RateLimiter;
  /** Reports per client (an IPv6 client by its /64): REPORTS_PER_HOUR. */
  reportLimiter: RateLimiter;
  /** DNS checks per domain: CHECKS_PER_MINUTE. */
  domainCheckLimiter: RateLimiter;
  /** Webhook test events and resends per account: SENDS_PER_MINUTE. */
  webhookSendLimiter: RateLimiter;
  /** Sign-in links e-mailed per address: LOGIN_MAILS_PER_HOUR. */
  mailLimiter: RateLimiter;
  /** Sends sign-in links and invites (SMTP_URL); null when not configured: nothing is e-mailed. */
  mailer: Mailer | null;
  /** Asks Facebook to re-scrape edited cards (FACEBOOK_APP_ID); null when not configured. */
  facebook: FacebookRescraper | null;
  log: Logger;
  /** The time as the services see it (src/clock.ts). */
  clock: Clock;
  links: LinkDeps;
  billing: BillingDeps;
  deletion: DeletionDeps;
  domains: DomainDeps;
  safety: SafetyDeps;
  webhooks: WebhookDeps;
  workspaces: WorkspaceDeps;
  members: MemberDeps;
};

/**
 * `uploadRelay`: in an app worker, how the request thread hears of the uploads it stores and removes. `clock`: a
 * test's (in an app worker, one the request thread moves: src/app.worker.ts). `pixelGate`: in an app worker, the request
 * thread's image budget (one per process); without it this thread's own. `countsRelay`: in an app worker, where
 * its counts go; without it they are kept here.
 */
export function createServices(
  config: Config,
  platform: Platform,
  uploadRelay?: UploadRelay,
  clock: Clock = systemClock,
  pixelGate?: PixelGate,
  countsRelay?: CountsRelay,
): Services {
  const version = versionInfo(resolveRelease(config.release));
  const { database, changes, hits } = platform;
  const db = database.db;
  const billingEnabled = isBillingEnabled(config);
  const log = createLogger(config.logFormat);
  const imageWork = new ImageWorkCounts((message) => log.warn(message), countsRelay?.imageWork ?? null);
  let budget: PixelBudget | null = null;
  const gate =
    pixelGate ??
    (budget = new PixelBudget(
      { pixels: config.images.pixels, smallPixels: RECYCLE_PIXELS, queue: config.images.queue },
      imageWork,
    ));
  const images = new ImageStore(openUploadBackend(config, platform.uploads, clock, uploadRelay), {
    gate,
    deadlineMs: config.images.deadlineMs,
    counts: imageWork,
    clock,
    log,
  });
  // The one Stripe client of the process.
  const stripe: StripeClient | null = config.stripe ? createStripe(config.stripe) : null;
  const facebook = config.facebook ? new FacebookRescraper(config.facebook, { clock, log }) : null;
  const outbound = safeFetcher(config);
  const mailer = config.mail ? smtpMailer(config.mail) : null;
  // What auto-fill, image imports, redirect checks and feeds fetch with: nothing with FETCH_DISABLED.
  const fetcher = config.fetch.enabled ? outbound : null;
  const safety = safetyDeps(config, { database, changes }, clock, log, fetcher, countsRelay?.safety ?? null);
  const deletion: DeletionDeps = {
    database,
    changes,
    images,
    stripe,
    crashAfter: config.testCrashDuringDeleteAfter,
    clock,
    log,
  };
  return {
    config,
    database,
    db,
    changes,
    hits,
    billingEnabled,
    images,
    imageGate: gate,
    imageBudget: budget,
    imageWork,
    version,
    pages: createPageRenderer({ version, stylesheet, clientScript, googleSignIn: config.google !== null, clock }),
    authLimiter: new RateLimiter(hits.countHit, config.authRateLimit, clock),
    fetchLimiter: new RateLimiter(hits.countHit, FETCHES_PER_MINUTE, clock),
    reportLimiter: new RateLimiter(hits.countHit, REPORTS_PER_HOUR, clock, 3_600_000),
    domainCheckLimiter: new RateLimiter(hits.countHit, CHECKS_PER_MINUTE, clock),
    webhookSendLimiter: new RateLimiter(hits.countHit, SENDS_PER_MINUTE, clock),
    mailLimiter: new RateLimiter(hits.countHit, LOGIN_MAILS_PER_HOUR, clock, 3_600_000),
    mailer,
    facebook,
    log,
    clock,
    links: {
      database,
      changes,
      images,
      publicUrl: config.publicUrl,
      leadsHere: leadsHere(config, db),
      billingEnabled,
      facebook,
      fetcher,
      clock,
      safety,
    },
    billing: {
      database,
      changes,
      config,
      stripe,
      checkVat: (input) => validateVat(config, log, input),
      clock,
      log,
    },
    deletion,
    webhooks: webhookDeps(config, platform, clock, log, { fetcher: outbound, billingEnabled }),
    workspaces: { database, removeWorkspace: (workspace) => removeWorkspace(deletion, workspace) },
    domains: {
      database,
      changes,
      clock,
      log,
      resolver: udpResolver(config.domains.dnsServers),
      routing: { cnameTarget: config.domains.cnameTarget, addresses: config.domains.addresses },
      publicUrl: config.publicUrl,
      ownHosts: ownHostnames(config),
      billingEnabled,
      safety,
    },
    safety,
    members: { database, clock, log, mailer, publicUrl: config.publicUrl, billingEnabled },
  };
}

/** Waits for what the services still do (re-scrapes asked for by the last saves), then closes their connections. */
export async function closeServices(services: Services): Promise<void> {
  await services.facebook?.settled();
  services.images.close();
  await services.database.close();
}
