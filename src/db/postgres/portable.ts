// The one bridge between the two dialects' types. Services are written against drizzle's SQLite types (ports.ts Db,
// the tables tablesOf hands out in db/tables.ts); on PostgreSQL the same calls run on pg-core objects, whose
// TypeScript types differ in name only where services look: tests/unit/schema-parity.test.ts proves that both
// schemas have one shape, tests/unit/engine-only-calls.test.ts finds SQLite-only calls outside SQLite's code, and the
// whole suite runs on both engines. Drizzle offers no type both dialects' builders are (docs/decisions/0052).
// Nothing else may cross dialects.
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import type { Db } from "../ports.ts";
import type * as sqliteSchema from "../sqlite/schema.ts";
import type * as pgSchema from "./schema.ts";

export type PgDb = BunSQLDatabase<typeof pgSchema>;
/** A transaction's handle: what PgDb.transaction hands its callback. */
export type PgTx = Parameters<Parameters<PgDb["transaction"]>[0]>[0];

/** The tables services query (db/tables.ts tablesOf): those both schemas have. */
export type ServiceTables = Pick<
  typeof sqliteSchema,
  | "users"
  | "links"
  | "subscriptions"
  | "payments"
  | "viewRollups"
  | "userConsents"
  | "sessions"
  | "apiTokens"
  | "loginLinks"
  | "stripeEvents"
  | "views"
  | "userAgents"
  | "retiredUserSlugs"
  | "viewVisitors"
  | "linkTotals"
  | "referrerRollups"
  | "domains"
  | "hostMapVersion"
  | "linkRules"
  | "threatEntries"
  | "abuseReports"
  | "auditLog"
  | "threatFeeds"
  | "destinations"
  | "webhookEndpoints"
  | "webhookDeliveries"
  | "linkOldAddresses"
  | "workspaces"
  | "workspaceMembers"
  | "crawlerFetches"
  | "crawlerFirstFetches"
  | "workspaceInvites"
  | "qrStyles"
  | "linkQrStyles"
  | "auditEvents"
>;

/** The PostgreSQL database (or a transaction on it) as services see a database. */
export function portable(db: PgDb | PgTx): Db;
/** The PostgreSQL tables as services see tables. */
export function portable(tables: typeof pgSchema): ServiceTables;
// The overloads above are the whole contract; at run time the object is handed on untouched.
export function portable(value: unknown): unknown {
  return value;
}
