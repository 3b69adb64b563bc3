// What the session check (src/auth/plugin.ts) and every guard built on it need, built by the composition root.
import type { Clock } from "../clock.ts";
import type { Db } from "../db/ports.ts";

export type SessionDeps = {
  db: Db;
  clock: Clock;
  /** The origin a cookie-carrying write must come from (CSRF), and where the consent message points. */
  publicUrl: string;
  /** Whether the session cookie is Secure (SECURE_COOKIES). */
  secureCookies: boolean;
};
