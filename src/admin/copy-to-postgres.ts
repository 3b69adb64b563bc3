// `linkprev admin copy-to-postgres`: moves a SQLite data directory into an empty PostgreSQL database, every row
// of every table, in one transaction, so that a self-hoster outgrowing one node loses no link and no view.
// This file holds the command's checks and its order; the copying is admin/copy-tables.ts (rows),
// admin/copy-view-gap.ts (views not yet in a rollup) and admin/copy-uploads.ts (images).
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { existsSync } from "node:fs";
import type { Config } from "../config/config.ts";
import { applyPostgresMigrations } from "../db/postgres/migrate.ts";
import { describeDatabase, postgresOptions } from "../db/postgres/options.ts";
import { applyMigrations } from "../db/sqlite/migrate.ts";
import { DatabaseUnavailable } from "../db/unavailable.ts";
import {
  checkedCounts,
  continueIdentities,
  copyPlans,
  copyTable,
  tablesWithRows,
  uncopiedTables,
} from "./copy-tables.ts";
import { checkUploadsCopied, copyUploadsToDatabase, copyUploadsToS3, uploadedFiles } from "./copy-uploads.ts";
import { checkRollupSums, foldViewGap } from "./copy-view-gap.ts";

/** The copy would not start (or would not fit): the message says why; the CLI exits 2. */
export class CopyRefused extends Error {}

export type CopyReport = {
  source: string;
  target: string;
  tables: Array<{ table: string; rows: number }>;
  /** Views the SQLite writer had stored but not yet counted in its rollups (a crash gap), counted in now. */
  foldedViews: number;
  images: { store: "dir" | "s3" | "db"; copied: number; skipped: string[] };
};

/** Copies `config.dbPath` (and the uploads of `config.uploadsDir`) into `config.postgres.url` and the configured uploads store. */
export async function copyToPostgres(config: Config, log: (line: string) => void): Promise<CopyReport> {
  if (!config.postgres)
    throw new CopyRefused("Name the PostgreSQL database to fill with --database-url postgres://… (or DATABASE_URL)");
  if (!existsSync(config.dbPath))
    throw new CopyRefused(`There is no SQLite database at ${config.dbPath} (pass the data directory with --data DIR)`);
  const target = describeDatabase(config.postgres.url);

  const sqlite = new Database(config.dbPath, { strict: true });
  const client = new SQL(postgresOptions(config.postgres.url, 2));
  try {
    sqlite.run("PRAGMA busy_timeout = 5000");
    // The source as this version's server would see it.
    applyMigrations(sqlite);
    const unknownTables = uncopiedTables(sqlite);
    if (unknownTables.length > 0)
      throw new CopyRefused(`The SQLite database has tables this version cannot copy: ${unknownTables.join(", ")}`);
    const plans = copyPlans(sqlite);

    try {
      await client`SELECT 1`;
    } catch (error) {
      throw new DatabaseUnavailable(
        `Cannot reach PostgreSQL at ${target}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    await applyPostgresMigrations(client);
    const refuse = (tables: string[]) =>
      new CopyRefused(
        `PostgreSQL at ${target} already holds LinkPrev data (rows in ${tables.join(", ")}): copy-to-postgres only fills an empty database; nothing was copied`,
      );
    const early = await tablesWithRows(client);
    if (early.length > 0) throw refuse(early);

    // One consistent snapshot of the SQLite file for the whole copy (WAL: the server's writers are not blocked,
    // but what they store from now on is not copied: stop the server first).
    sqlite.run("BEGIN");
    const images = uploadedFiles(config.uploadsDir);
    // Objects first: if the database copy then fails, a rerun overwrites them (same names) and nothing
    // refers to a missing image; the start-up sweep removes them if LinkPrev is never pointed at this store.
    if (config.uploads.kind === "s3") await copyUploadsToS3(config.uploads, config.uploadsDir, images.names);

    const counted = await client.begin(async (tx) => {
      // Two copies started together: the second waits here and then finds rows.
      await tx`SELECT pg_advisory_xact_lock(hashtext('linkprev-copy-to-postgres'))`;
      const late = await tablesWithRows(tx);
      if (late.length > 0) throw refuse(late);

      const expected = new Map<string, number>();
      for (const plan of plans) expected.set(plan.table, await copyTable(sqlite, tx, plan));
      const gap = await foldViewGap(sqlite, tx, plans.find((plan) => plan.table === "view_rollups")!);
      expected.set("view_rollups", expected.get("view_rollups")! + gap.newRollups);
      if (config.uploads.kind === "db") await copyUploadsToDatabase(tx, config.uploadsDir, images.names);
      await continueIdentities(tx, plans);

      const tables = await checkedCounts(tx, plans, expected);
      await checkRollupSums(sqlite, tx, gap);
      if (config.uploads.kind === "db") await checkUploadsCopied(tx, images.names);
      return { tables, foldedViews: gap.human + gap.bot };
    });
    sqlite.run("ROLLBACK");

    const report: CopyReport = {
      source: config.dbPath,
      target,
      tables: counted.tables,
      foldedViews: counted.foldedViews,
      images: {
        store: config.uploads.kind,
        copied: config.uploads.kind === "dir" ? 0 : images.names.length,
        skipped: images.skipped,
      },
    };
    printReport(report, config, log);
    return report;
  } finally {
    if (sqlite.inTransaction) sqlite.run("ROLLBACK");
    sqlite.close();
    await client.close();
  }
}

function printReport(report: CopyReport, config: Config, log: (line: string) => void): void {
  log(`Copied ${report.source} to PostgreSQL at ${report.target} (row counts checked, one transaction):`);
  const width = Math.max(...report.tables.map((t) => t.table.length));
  for (const { table, rows } of report.tables) log(`  ${table.padEnd(width)}  ${rows}`);
  if (report.foldedViews > 0)
    log(`  (${report.foldedViews} view(s) stored after SQLite's last rollup fold are counted in view_rollups)`);
  const { images } = report;
  if (images.store === "dir") {
    log(
      `Images: UPLOADS_STORE=dir, so they stay in ${config.uploadsDir}; with several nodes set UPLOADS_STORE=s3 or db and copy again into an empty database, or share that folder`,
    );
  } else {
    log(
      `Images: ${images.copied} copied into the ${images.store === "s3" ? `S3 bucket ${config.uploads.kind === "s3" ? config.uploads.bucket : ""}` : "database (uploads table)"}`,
    );
  }
  if (images.skipped.length > 0) log(`  not copied (not an upload LinkPrev named): ${images.skipped.join(", ")}`);
  log("Now start the nodes with this DATABASE_URL (and UPLOADS_STORE); the SQLite data directory is left in place.");
}
