// A database that cannot answer now (PostgreSQL stopped, restarting or failing over; SQLite's disk full, read-only
// or locked) is a 503 with Retry-After and a readable message, never a 500: the one test of such errors, used by
// the error mapper (error-handler.ts) and by the raw /go routes (go/go.ts).

/** How long a client is asked to wait before trying again; a managed failover takes 10–30 s. */
export const RETRY_AFTER_SECONDS = 5;
export const DATABASE_DOWN_MESSAGE = "The database is not answering right now. Please try again in a few seconds.";

/** Bun's PostgreSQL client codes for a connection it could not open, lost or gave up on. */
const POSTGRES_CONNECTION =
  /^ERR_POSTGRES_(CONNECTION_CLOSED|CONNECTION_FAILED|CONNECTION_REFUSED|CONNECTION_TIMEOUT|IDLE_TIMEOUT|LIFETIME_TIMEOUT)$/;
/**
 * SQLSTATEs of a server that cannot serve now: connection exceptions (08), shutting down or starting (57P01–57P03),
 * out of resources or disk (53), errors of its files or disk (58), a read-only server (25006: a replica during a
 * failover).
 */
const POSTGRES_STATE = /^(08...|57P0[123]|53...|58...|25006)$/;
const SQLITE = /^SQLITE_(FULL|BUSY|LOCKED|READONLY|IOERR|CANTOPEN)/;

/** Whether the error (or one it wraps: drizzle wraps the driver's) says the database cannot answer now. */
export function isDatabaseDown(error: unknown): boolean {
  for (
    let e = error, depth = 0;
    e && typeof e === "object" && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, errno } = e as { code?: unknown; errno?: unknown };
    if (
      typeof code === "string" &&
      (POSTGRES_CONNECTION.test(code) ||
        SQLITE.test(code) ||
        POSTGRES_STATE.test(code) ||
        code === "ENOSPC" ||
        code === "ECONNREFUSED")
    )
      return true;
    if (typeof errno === "string" && POSTGRES_STATE.test(errno)) return true;
  }
  return false;
}

export const retryAfterHeaders = { "Retry-After": String(RETRY_AFTER_SECONDS) };
