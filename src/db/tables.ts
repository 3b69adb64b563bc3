// The tables a query builds its SQL from are those of the database it is given: drizzle needs pg-core tables for a
// PostgreSQL handle (or one of its transactions) and sqlite-core ones for SQLite. A query reads them inside its
// function, from its handle (`const { links } = tablesOf(db)`); no module holds a table of its own
// (tests/unit/table-captures.test.ts). Both schemas have one shape (tests/unit/schema-parity.test.ts) and are typed
// as the SQLite one (postgres/portable.ts, docs/decisions/0052).
import { is } from "drizzle-orm";
import { PgDatabase } from "drizzle-orm/pg-core";
import type { Db } from "./ports.ts";
import { portable, type ServiceTables } from "./postgres/portable.ts";
import * as pg from "./postgres/schema.ts";
import * as sqlite from "./sqlite/schema.ts";

const postgresTables = portable(pg);

/** The tables of `db`'s engine: `db` is a database the platform opened (ports.ts Database.db) or a transaction on it. */
export function tablesOf(db: Db): ServiceTables {
  return is(db, PgDatabase) ? postgresTables : sqlite;
}

/** The tables as queries see them (for a column's type: `Tables["links"]["id"]`). */
export type Tables = ServiceTables;
export type { Link, Subscription, User } from "./sqlite/schema.ts";
export type Domain = typeof sqlite.domains.$inferSelect;
