// copy-to-postgres's table copying (admin/copy-to-postgres.ts runs it in one transaction). Columns come from the
// PostgreSQL schema (db/postgres/schema.ts), checked against what the SQLite file really has, so a column one side
// lacks stops the copy instead of being dropped. Rows go in chunks through unnest() arrays (one parameter per
// column whatever the chunk size; multi-row VALUES would hit the 65,535-parameter limit).
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable, type PgColumn } from "drizzle-orm/pg-core";
import * as pg from "../db/postgres/schema.ts";

/** Parents before children, so that every foreign key finds its row. */
const COPIED: PgTable[] = [
  pg.users,
  pg.workspaces,
  pg.workspaceMembers,
  pg.domains,
  pg.links,
  pg.subscriptions,
  pg.payments,
  pg.userConsents,
  pg.apiTokens,
  pg.loginLinks,
  pg.sessions,
  pg.stripeEvents,
  pg.userAgents,
  pg.views,
  pg.viewRollups,
  pg.referrerRollups,
  pg.crawlerFetches,
  pg.crawlerFirstFetches,
  pg.retiredUserSlugs,
  pg.linkRules,
  pg.linkOldAddresses,
  pg.threatEntries,
  pg.threatFeeds,
  pg.destinations,
  pg.abuseReports,
  pg.auditLog,
  pg.webhookEndpoints,
  pg.webhookDeliveries,
  pg.workspaceInvites,
  pg.qrStyles,
  pg.auditEvents,
  pg.linkQrStyles,
];
/** Rows every database gets from its migrations: host_map_version's counter (src/domains/host-map.ts). */
const MIGRATION_ROWS = ["host_map_version"];
/**
 * SQLite bookkeeping with no PostgreSQL counterpart: the rollup fold mark (admin/copy-view-gap.ts folds in its
 * gap), migrations, and today's visitor hashes (meaningless without the salt the SQLite writer held in memory).
 * link_totals is PostgreSQL's own sum of the copied rollups (its trigger keeps it as they go in); view_batches are
 * the SQLite writer's batch ids, which no PostgreSQL node will send again; webhook_click_counts, the open window's
 * link.clicked counts (the copy is made with the server stopped, which closed its window); crawler_fetch_queue, the
 * crawler fetches waiting for a fold (a graceful stop folds them into crawler_fetches; a crash's are left out).
 */
const NOT_COPIED = new Set([
  "view_rollup_mark",
  "view_visitors",
  "__migrations",
  "link_totals",
  "view_batches",
  "webhook_click_counts",
  "crawler_fetch_queue",
  ...MIGRATION_ROWS,
]);
/** PostgreSQL columns SQLite does not have, filled by their defaults: SQLite's rollups become slot 0. */
const PG_ONLY_COLUMNS = new Set(["view_rollups.slot"]);
/** Rows per statement: a few MB of arrays at most. */
export const CHUNK_ROWS = 5000;

type Kind = "int" | "bigint" | "smallint" | "float" | "text" | "bool" | "timestamp";

function kindOf(column: PgColumn): Kind {
  const type = column.getSQLType();
  if (type === "integer") return "int";
  if (type === "bigint") return "bigint";
  if (type === "smallint") return "smallint";
  if (type === "double precision") return "float";
  if (type === "text") return "text";
  if (type === "boolean") return "bool";
  if (type.startsWith("timestamp")) return "timestamp";
  throw new Error(`copy-to-postgres does not know how to copy ${column.name} (${type})`);
}

/** The array element type sent, the cast in SQL, and how a SQLite value becomes one. */
const KINDS: Record<
  Kind,
  {
    array: "INT" | "BIGINT" | "SMALLINT" | "DOUBLE PRECISION" | "TEXT" | "BOOLEAN";
    cast: string;
    convert: (value: unknown) => unknown;
  }
> = {
  int: { array: "INT", cast: "int4[]", convert: (v) => (v === null ? null : Number(v)) },
  smallint: { array: "SMALLINT", cast: "int2[]", convert: (v) => (v === null ? null : Number(v)) },
  bigint: { array: "BIGINT", cast: "int8[]", convert: (v) => (v === null ? null : Number(v)) },
  float: { array: "DOUBLE PRECISION", cast: "float8[]", convert: (v) => (v === null ? null : Number(v)) },
  text: { array: "TEXT", cast: "text[]", convert: (v) => (v === null ? null : String(v)) },
  // SQLite keeps booleans as 0/1.
  bool: { array: "BOOLEAN", cast: "bool[]", convert: (v) => (v === null ? null : Number(v) !== 0) },
  // SQLite keeps ms since 1970 (the defaults write fractions; the app reads them truncated, as Date does):
  // sent as whole ms and added to the epoch exactly in SQL.
  timestamp: { array: "BIGINT", cast: "int8[]", convert: (v) => (v === null ? null : Math.trunc(Number(v))) },
};

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export type Plan = {
  table: string;
  columns: Array<{ name: string; kind: Kind }>;
  primaryKey: string[];
  hasIdentityId: boolean;
};

/** What to read from SQLite and write to PostgreSQL for one table, after checking both have the same columns. */
function planFor(sqlite: Database, table: PgTable): Plan {
  const config = getTableConfig(table);
  const sqliteColumns = sqlite
    .query<{ name: string; pk: number }, []>(`PRAGMA table_info(${quote(config.name)})`)
    .all();
  if (sqliteColumns.length === 0) throw new Error(`The SQLite database has no table ${config.name}`);
  const sqliteNames = new Set(sqliteColumns.map((c) => c.name));
  const pgNames = new Set(config.columns.map((c) => c.name));
  const lost = [...sqliteNames].filter((name) => !pgNames.has(name));
  if (lost.length > 0)
    throw new Error(`PostgreSQL's ${config.name} has no column for SQLite's ${lost.join(", ")}: nothing was copied`);
  const columns: Plan["columns"] = [];
  for (const column of config.columns) {
    if (!sqliteNames.has(column.name)) {
      if (PG_ONLY_COLUMNS.has(`${config.name}.${column.name}`)) continue;
      throw new Error(`SQLite's ${config.name} has no column ${column.name}: nothing was copied`);
    }
    columns.push({ name: column.name, kind: kindOf(column) });
  }
  const primaryKey = sqliteColumns
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
  const id = config.columns.find((c) => c.name === "id");
  if (primaryKey.length === 0) throw new Error(`SQLite's ${config.name} has no primary key to read it in order by`);
  return { table: config.name, columns, primaryKey, hasIdentityId: Boolean(id?.generatedIdentity) };
}

/** Reads `plan.table` from SQLite in primary-key order, `CHUNK_ROWS` at a time (keyset, never OFFSET). */
function* chunksOf(sqlite: Database, plan: Plan): Generator<unknown[][]> {
  const select = `SELECT ${plan.columns.map((c) => quote(c.name)).join(", ")} FROM ${quote(plan.table)}`;
  const key = plan.primaryKey.map(quote).join(", ");
  const order = ` ORDER BY ${key} LIMIT ${CHUNK_ROWS}`;
  const keyAt = plan.primaryKey.map((name) => plan.columns.findIndex((c) => c.name === name));
  const first = sqlite.query<unknown[], []>(select + order);
  const next = sqlite.query(`${select} WHERE (${key}) > (${plan.primaryKey.map(() => "?").join(", ")})${order}`);
  let rows = first.values() as unknown[][];
  while (rows.length > 0) {
    yield rows;
    if (rows.length < CHUNK_ROWS) return;
    const last = rows.at(-1)!;
    rows = next.values(...(keyAt.map((i) => last[i]) as [])) as unknown[][];
  }
}

function insertStatement(plan: Plan, suffix = ""): string {
  const names = plan.columns.map((c) => quote(c.name)).join(", ");
  const params = plan.columns.map((c, i) => `$${i + 1}::${KINDS[c.kind].cast}`).join(", ");
  const values = plan.columns
    .map((c) =>
      c.kind === "timestamp"
        ? `'epoch'::timestamptz + u.${quote(c.name)} * interval '1 millisecond'`
        : `u.${quote(c.name)}`,
    )
    .join(", ");
  return `INSERT INTO ${quote(plan.table)} (${names}) SELECT ${values} FROM unnest(${params}) AS u(${names})${suffix}`;
}

export async function insertChunk(tx: SQL, plan: Plan, rows: unknown[][], suffix = ""): Promise<unknown[]> {
  const parameters = plan.columns.map((column, i) => {
    const { array, convert } = KINDS[column.kind];
    return tx.array(
      rows.map((row) => convert(row[i] ?? null)),
      array,
    );
  });
  return tx.unsafe(insertStatement(plan, suffix), parameters);
}

export const countOf = async (tx: SQL, table: string) =>
  Number((await tx.unsafe(`SELECT count(*)::int8 AS n FROM ${quote(table)}`))[0].n);

/** Every table of the PostgreSQL schema that holds a row already. */
export async function tablesWithRows(client: SQL): Promise<string[]> {
  const names = (Object.values(pg) as unknown[])
    .filter((value) => is(value, PgTable))
    .map((table) => getTableConfig(table as PgTable).name)
    .filter((name) => !MIGRATION_ROWS.includes(name));
  const found: string[] = [];
  for (const name of names)
    if ((await client.unsafe(`SELECT EXISTS (SELECT 1 FROM ${quote(name)}) AS any`))[0].any) found.push(name);
  return found;
}

/** The SQLite tables this version would not copy (nor knowingly leave behind). */
export function uncopiedTables(sqlite: Database): string[] {
  return sqlite
    .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all()
    .map((row) => row.name)
    .filter((name) => !NOT_COPIED.has(name) && !COPIED.some((table) => getTableConfig(table).name === name));
}

/** What to copy of every table, parents first. */
export const copyPlans = (sqlite: Database): Plan[] => COPIED.map((table) => planFor(sqlite, table));

/** Copies one table's rows; returns how many were read. */
export async function copyTable(sqlite: Database, tx: SQL, plan: Plan): Promise<number> {
  let rows = 0;
  for (const chunk of chunksOf(sqlite, plan)) {
    await insertChunk(tx, plan, chunk);
    rows += chunk.length;
  }
  return rows;
}

/** New rows must get ids past the copied ones. */
export async function continueIdentities(tx: SQL, plans: Plan[]): Promise<void> {
  for (const plan of plans) {
    if (!plan.hasIdentityId) continue;
    await tx.unsafe(
      `SELECT setval(pg_get_serial_sequence($1, 'id'), max(id)) FROM ${quote(plan.table)} HAVING max(id) IS NOT NULL`,
      [plan.table],
    );
  }
}

/** Every table's row count in PostgreSQL, checked against what was read from SQLite: every row arrived, or nothing is committed. */
export async function checkedCounts(
  tx: SQL,
  plans: Plan[],
  expected: Map<string, number>,
): Promise<Array<{ table: string; rows: number }>> {
  const tables: Array<{ table: string; rows: number }> = [];
  for (const plan of plans) {
    const rows = await countOf(tx, plan.table);
    if (rows !== expected.get(plan.table))
      throw new Error(
        `${plan.table}: ${expected.get(plan.table)} rows read from SQLite but ${rows} in PostgreSQL; nothing was copied`,
      );
    tables.push({ table: plan.table, rows });
  }
  return tables;
}
