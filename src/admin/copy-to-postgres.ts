// `linkprev admin copy-to-postgres`: moves a SQLite data directory into an empty PostgreSQL database, every row
// of every table, in one transaction, so that a self-hoster outgrowing one node loses no link and no view.
// Columns come from the PostgreSQL schema (db/postgres/schema.ts), checked against what the SQLite file really has, so a
// column one side lacks stops the copy instead of being dropped. Rows go in chunks through unnest() arrays (one
// parameter per column whatever the chunk size; multi-row VALUES would hit the 65,535-parameter limit).
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { is } from "drizzle-orm";
import { getTableConfig, PgTable, type PgColumn } from "drizzle-orm/pg-core";
import type { Config } from "../config.ts";
import { applyPostgresMigrations } from "../db/postgres/migrate.ts";
import { describeDatabase, postgresOptions } from "../db/postgres/options.ts";
import * as pg from "../db/postgres/schema.ts";
import { applyMigrations } from "../db/sqlite/migrate.ts";
import { DatabaseUnavailable } from "../db/unavailable.ts";
import { S3Uploads, STORED_NAME } from "../links/images/backends.ts";

/** The copy would not start (or would not fit): the message says why; the CLI exits 2. */
export class CopyRefused extends Error {}

/** Parents before children, so that every foreign key finds its row. */
const COPIED: PgTable[] = [
  pg.users,
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
  pg.retiredUserSlugs,
];
/**
 * SQLite bookkeeping with no PostgreSQL counterpart: the rollup fold mark (its gap is folded in below), migrations,
 * and today's visitor hashes (meaningless without the salt the SQLite writer held in memory).
 */
const NOT_COPIED = new Set(["view_rollup_mark", "view_visitors", "__migrations"]);
/** PostgreSQL columns SQLite does not have, filled by their defaults: SQLite's rollups become slot 0. */
const PG_ONLY_COLUMNS = new Set(["view_rollups.slot"]);
/** Rows per statement: a few MB of arrays at most. */
const CHUNK_ROWS = 5000;

export type CopyReport = {
  source: string;
  target: string;
  tables: Array<{ table: string; rows: number }>;
  /** Views the SQLite writer had stored but not yet counted in its rollups (a crash gap), counted in now. */
  foldedViews: number;
  images: { store: "dir" | "s3" | "db"; copied: number; skipped: string[] };
};

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
const KINDS: Record<Kind, { array: "INT" | "BIGINT" | "SMALLINT" | "DOUBLE PRECISION" | "TEXT" | "BOOLEAN"; cast: string; convert: (value: unknown) => unknown }> = {
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

type Plan = {
  table: string;
  columns: Array<{ name: string; kind: Kind }>;
  primaryKey: string[];
  hasIdentityId: boolean;
};

/** What to read from SQLite and write to PostgreSQL for one table, after checking both have the same columns. */
function planFor(sqlite: Database, table: PgTable): Plan {
  const config = getTableConfig(table);
  const sqliteColumns = sqlite.query<{ name: string; pk: number }, []>(`PRAGMA table_info(${quote(config.name)})`).all();
  if (sqliteColumns.length === 0) throw new Error(`The SQLite database has no table ${config.name}`);
  const sqliteNames = new Set(sqliteColumns.map((c) => c.name));
  const pgNames = new Set(config.columns.map((c) => c.name));
  const lost = [...sqliteNames].filter((name) => !pgNames.has(name));
  if (lost.length > 0) throw new Error(`PostgreSQL's ${config.name} has no column for SQLite's ${lost.join(", ")}: nothing was copied`);
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
    .map((c) => (c.kind === "timestamp" ? `'epoch'::timestamptz + u.${quote(c.name)} * interval '1 millisecond'` : `u.${quote(c.name)}`))
    .join(", ");
  return `INSERT INTO ${quote(plan.table)} (${names}) SELECT ${values} FROM unnest(${params}) AS u(${names})${suffix}`;
}

async function insertChunk(tx: SQL, plan: Plan, rows: unknown[][], suffix = ""): Promise<unknown[]> {
  const parameters = plan.columns.map((column, i) => {
    const { array, convert } = KINDS[column.kind];
    return tx.array(rows.map((row) => convert(row[i] ?? null)), array);
  });
  return tx.unsafe(insertStatement(plan, suffix), parameters);
}

const countOf = async (tx: SQL, table: string) => Number((await tx.unsafe(`SELECT count(*)::int8 AS n FROM ${quote(table)}`))[0].n);

/** Every table of the PostgreSQL schema that holds a row already. */
async function tablesWithRows(client: SQL): Promise<string[]> {
  const names = (Object.values(pg) as unknown[]).filter((value) => is(value, PgTable)).map((table) => getTableConfig(table as PgTable).name);
  const found: string[] = [];
  for (const name of names) if ((await client.unsafe(`SELECT EXISTS (SELECT 1 FROM ${quote(name)}) AS any`))[0].any) found.push(name);
  return found;
}

/** Copies `config.dbPath` (and the uploads of `config.uploadsDir`) into `config.postgres.url` and the configured uploads store. */
export async function copyToPostgres(config: Config, log: (line: string) => void = console.log): Promise<CopyReport> {
  if (!config.postgres) throw new CopyRefused("Name the PostgreSQL database to fill with --database-url postgres://… (or DATABASE_URL)");
  if (!existsSync(config.dbPath)) throw new CopyRefused(`There is no SQLite database at ${config.dbPath} (pass the data directory with --data DIR)`);
  const target = describeDatabase(config.postgres.url);

  const sqlite = new Database(config.dbPath, { strict: true });
  const client = new SQL(postgresOptions(config.postgres.url, 2));
  try {
    sqlite.run("PRAGMA busy_timeout = 5000");
    // The source as this version's server would see it.
    applyMigrations(sqlite);
    const unknownTables = sqlite
      .query<{ name: string }, []>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .all()
      .map((row) => row.name)
      .filter((name) => !NOT_COPIED.has(name) && !COPIED.some((table) => getTableConfig(table).name === name));
    if (unknownTables.length > 0) throw new CopyRefused(`The SQLite database has tables this version cannot copy: ${unknownTables.join(", ")}`);
    const plans = COPIED.map((table) => planFor(sqlite, table));

    try {
      await client`SELECT 1`;
    } catch (error) {
      throw new DatabaseUnavailable(`Cannot reach PostgreSQL at ${target}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await applyPostgresMigrations(client);
    const refuse = (tables: string[]) =>
      new CopyRefused(`PostgreSQL at ${target} already holds LinkPrev data (rows in ${tables.join(", ")}): copy-to-postgres only fills an empty database; nothing was copied`);
    const early = await tablesWithRows(client);
    if (early.length > 0) throw refuse(early);

    // One consistent snapshot of the SQLite file for the whole copy (WAL: the server's writers are not blocked,
    // but what they store from now on is not copied: stop the server first).
    sqlite.run("BEGIN");
    const images = uploadedFiles(config.uploadsDir);
    // Objects first: if the database copy then fails, a rerun overwrites them (same names) and nothing
    // refers to a missing image; the start-up sweep removes them if LinkPrev is never pointed at this store.
    if (config.uploads.kind === "s3") {
      const store = new S3Uploads(config.uploads);
      for (const name of images.names) await store.put(name, await Bun.file(join(config.uploadsDir, name)).bytes());
    }

    const counted = await client.begin(async (tx) => {
      // Two copies started together: the second waits here and then finds rows.
      await tx`SELECT pg_advisory_xact_lock(hashtext('linkprev-copy-to-postgres'))`;
      const late = await tablesWithRows(tx);
      if (late.length > 0) throw refuse(late);

      const expected = new Map<string, number>();
      for (const plan of plans) {
        let rows = 0;
        for (const chunk of chunksOf(sqlite, plan)) {
          await insertChunk(tx, plan, chunk);
          rows += chunk.length;
        }
        expected.set(plan.table, rows);
      }

      // Views stored beyond SQLite's fold mark (a crash before the writer's next fold) are in no rollup yet:
      // count them in as the SQLite server would at its next start.
      const gap = sqlite
        .query<{ link_id: number; day: string; platform: string; human: number; bot: number; last_at: number; scans: number; unique_humans: number }, []>(
          `SELECT link_id, strftime('%Y-%m-%d', timestamp / 1000, 'unixepoch') AS day, coalesce(platform, '') AS platform,
                  sum(is_bot = 0) AS human, sum(is_bot) AS bot, max(timestamp) AS last_at, sum(is_bot = 0 AND scan) AS scans, 0 AS unique_humans
           FROM views v
           WHERE id > coalesce((SELECT last_view_id FROM view_rollup_mark), (SELECT max(id) FROM views), 0)
             AND EXISTS (SELECT 1 FROM links WHERE id = v.link_id)
           GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        )
        .all();
      let foldedViews = 0;
      const rollupPlan = plans.find((plan) => plan.table === "view_rollups")!;
      for (let i = 0; i < gap.length; i += CHUNK_ROWS) {
        const chunk = gap.slice(i, i + CHUNK_ROWS);
        const rows = chunk.map((r) => rollupPlan.columns.map((c) => r[c.name as keyof typeof r]));
        const result = await insertChunk(
          tx,
          rollupPlan,
          rows,
          ` ON CONFLICT (link_id, day, platform, slot) DO UPDATE SET human = view_rollups.human + excluded.human, bot = view_rollups.bot + excluded.bot, scans = view_rollups.scans + excluded.scans, last_at = greatest(view_rollups.last_at, excluded.last_at) RETURNING (xmax = 0) AS inserted`,
        );
        expected.set("view_rollups", expected.get("view_rollups")! + (result as Array<{ inserted: boolean }>).filter((row) => row.inserted).length);
        foldedViews += chunk.reduce((sum, row) => sum + row.human + row.bot, 0);
      }

      if (config.uploads.kind === "db") {
        for (const name of images.names) {
          await tx`INSERT INTO uploads (name, content_type, bytes) VALUES (${name}, 'image/jpeg', ${await Bun.file(join(config.uploadsDir, name)).bytes()})`;
        }
      }

      // New rows must get ids past the copied ones.
      for (const plan of plans) {
        if (!plan.hasIdentityId) continue;
        await tx.unsafe(`SELECT setval(pg_get_serial_sequence($1, 'id'), max(id)) FROM ${quote(plan.table)} HAVING max(id) IS NOT NULL`, [plan.table]);
      }

      // Every row arrived, or nothing is committed.
      const tables: CopyReport["tables"] = [];
      for (const plan of plans) {
        const rows = await countOf(tx, plan.table);
        if (rows !== expected.get(plan.table)) throw new Error(`${plan.table}: ${expected.get(plan.table)} rows read from SQLite but ${rows} in PostgreSQL; nothing was copied`);
        tables.push({ table: plan.table, rows });
      }
      const sqliteSums = sqlite.query<{ human: number; bot: number }, []>(`SELECT coalesce(sum(human), 0) AS human, coalesce(sum(bot), 0) AS bot FROM view_rollups`).get()!;
      const [pgSums] = await tx`SELECT coalesce(sum(human), 0)::int8 AS human, coalesce(sum(bot), 0)::int8 AS bot FROM view_rollups`;
      const gapHuman = gap.reduce((sum, row) => sum + row.human, 0);
      const gapBot = gap.reduce((sum, row) => sum + row.bot, 0);
      if (Number(pgSums.human) !== sqliteSums.human + gapHuman || Number(pgSums.bot) !== sqliteSums.bot + gapBot) {
        throw new Error("view_rollups: the copied counts differ from SQLite's; nothing was copied");
      }
      if (config.uploads.kind === "db" && (await countOf(tx, "uploads")) !== images.names.length) throw new Error("uploads: not every image arrived; nothing was copied");
      return { tables, foldedViews };
    });
    sqlite.run("ROLLBACK");

    const report: CopyReport = {
      source: config.dbPath,
      target,
      tables: counted.tables,
      foldedViews: counted.foldedViews,
      images: { store: config.uploads.kind, copied: config.uploads.kind === "dir" ? 0 : images.names.length, skipped: images.skipped },
    };
    printReport(report, config, log);
    return report;
  } finally {
    if (sqlite.inTransaction) sqlite.run("ROLLBACK");
    sqlite.close();
    await client.close();
  }
}

/** The uploads LinkPrev named, and whatever else lies in the folder (not copied). */
function uploadedFiles(dir: string): { names: string[]; skipped: string[] } {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return { names: [], skipped: [] };
  }
  return { names: entries.filter((name) => STORED_NAME.test(name)).sort(), skipped: entries.filter((name) => !STORED_NAME.test(name)).sort() };
}

function printReport(report: CopyReport, config: Config, log: (line: string) => void): void {
  log(`Copied ${report.source} to PostgreSQL at ${report.target} (row counts checked, one transaction):`);
  const width = Math.max(...report.tables.map((t) => t.table.length));
  for (const { table, rows } of report.tables) log(`  ${table.padEnd(width)}  ${rows}`);
  if (report.foldedViews > 0) log(`  (${report.foldedViews} view(s) stored after SQLite's last rollup fold are counted in view_rollups)`);
  const { images } = report;
  if (images.store === "dir") {
    log(`Images: UPLOADS_STORE=dir, so they stay in ${config.uploadsDir}; with several nodes set UPLOADS_STORE=s3 or db and copy again into an empty database, or share that folder`);
  } else {
    log(`Images: ${images.copied} copied into the ${images.store === "s3" ? `S3 bucket ${config.uploads.kind === "s3" ? config.uploads.bucket : ""}` : "database (uploads table)"}`);
  }
  if (images.skipped.length > 0) log(`  not copied (not an upload LinkPrev named): ${images.skipped.join(", ")}`);
  log("Now start the nodes with this DATABASE_URL (and UPLOADS_STORE); the SQLite data directory is left in place.");
}
