// The PostgreSQL twin of src/db/sqlite/schema.ts: the same exports, table and column names, nullability and
// TypeScript types, so that services written against one run against the other. Where they differ it is on
// purpose and said at the table in ./schema/; tests/unit/schema-parity.test.ts holds the two together and lists each difference.
// Timestamps are timestamptz(3) read as Date (SQLite keeps ms integers read as Date); booleans are boolean.
// CHECK constraints use length(), which PostgreSQL has for text as SQLite does.
// One file per domain under ./schema/; this file is what the engine and the parity test read.
export * from "./schema/accounts.ts";
export * from "./schema/domains.ts";
export * from "./schema/links.ts";
export * from "./schema/views.ts";
export * from "./schema/safety.ts";
export * from "./schema/webhooks.ts";
export * from "./schema/crawler-fetches.ts";
export * from "./schema/members.ts";
export * from "./schema/qr-styles.ts";
export * from "./schema/audit.ts";
