// What the invite and member operations (src/members/) are given, built by the composition root (src/services.ts).
import type { Clock } from "../clock.ts";
import type { Database } from "../db/ports.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { Logger } from "../observability/log.ts";

export type MemberDeps = {
  database: Database;
  clock: Clock;
  log: Logger;
  /** Sends invites (SMTP_URL); null: the inviter hands the URL on themselves. */
  mailer: Mailer | null;
  /** Where accept URLs point. */
  publicUrl: string;
  /** Without billing (self-hosting) every workspace has the enterprise plan's unlimited seats. */
  billingEnabled: boolean;
};
