// What the pages (src/pages/routes.ts, app-pages.ts) need, built by the composition root (src/app.ts).
import type { SessionDeps } from "../auth/session-deps.ts";
import type { BillingDeps } from "../billing/deps.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { Db } from "../db/ports.ts";
import type { DomainDeps } from "../domains/deps.ts";
import type { LinkDeps } from "../links/deps.ts";
import type { MemberDeps } from "../members/deps.ts";
import type { Logger } from "../observability/log.ts";
import type { WebhookDeps } from "../webhooks/deps.ts";
import type { PageRenderer } from "./render.tsx";

export type PageDeps = {
  /** What the pages show of the instance: its address, plans' country, contact links, Google sign-in, retention. */
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  pages: PageRenderer;
  /** Whether Stripe is configured: without it everyone has enterprise limits. */
  billingEnabled: boolean;
  links: LinkDeps;
  domains: DomainDeps;
  billing: BillingDeps;
  webhooks: WebhookDeps;
  /** Accepting an invite from its page (/invites/:token). */
  members: MemberDeps;
  session: SessionDeps;
};
