// Which errors mean "the database cannot answer now" (src/http/database-down.ts): those become a 503 with
// Retry-After; any other error stays a 500 that is logged.
import { expect, test } from "bun:test";
import { isDatabaseDown } from "../../src/http/database-down.ts";

const error = (fields: Record<string, unknown>, cause?: unknown) =>
  Object.assign(new Error("x"), fields, cause ? { cause } : {});

test("PostgreSQL unreachable, shutting down or out of disk, and SQLite full, locked or read-only are the database away", () => {
  for (const code of [
    "ERR_POSTGRES_CONNECTION_REFUSED",
    "ERR_POSTGRES_CONNECTION_FAILED",
    "ERR_POSTGRES_CONNECTION_CLOSED",
    "ERR_POSTGRES_CONNECTION_TIMEOUT",
    "SQLITE_FULL",
    "SQLITE_BUSY",
    "SQLITE_READONLY_DBMOVED",
    "SQLITE_IOERR_WRITE",
    "ENOSPC",
  ]) {
    expect(isDatabaseDown(error({ code })), code).toBe(true);
  }
  for (const errno of ["57P01", "57P03", "08006", "53100", "58P01", "25006"])
    expect(isDatabaseDown(error({ code: "ERR_POSTGRES_SERVER_ERROR", errno })), errno).toBe(true);
  // drizzle wraps the driver's error.
  expect(isDatabaseDown(error({}, error({ code: "ERR_POSTGRES_CONNECTION_CLOSED" })))).toBe(true);
});

test("a broken query, a constraint or a bug is not", () => {
  for (const errno of ["22012", "23505", "42P01"])
    expect(isDatabaseDown(error({ code: "ERR_POSTGRES_SERVER_ERROR", errno })), errno).toBe(false);
  for (const code of ["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_ERROR", "ENOENT"])
    expect(isDatabaseDown(error({ code })), code).toBe(false);
  expect(isDatabaseDown(new TypeError("undefined is not a function"))).toBe(false);
  expect(isDatabaseDown(null)).toBe(false);
});
