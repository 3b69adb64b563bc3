// What /api/auth/* and /api/tokens (src/auth/routes.ts) need, built by the composition root (src/app.ts).
import type { Config } from "../config/config.ts";
import type { Database } from "../db/ports.ts";
import type { RateLimiter } from "../http/rate-limit.ts";
import type { Logger } from "../observability/log.ts";
import type { SessionDeps } from "./session-deps.ts";

export type AuthRouteDeps = {
  session: SessionDeps;
  /** Where a Google sign-in's user is written (its .db is the session's). */
  database: Database;
  /** Shared by the sign-in, sign-in link and token endpoints. */
  authLimiter: RateLimiter;
  /** GOOGLE_*; null when Google sign-in is not configured. */
  google: Config["google"];
  log: Logger;
};
