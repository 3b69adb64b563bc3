// For the SQLite pass: every test server's database starts as a copy of one migrated file, made once per `bun test`
// process, as the PostgreSQL pass copies a template database (tests/helpers/postgres-test-cluster.ts). Running the
// migrations took 30-40 ms of CPU per test server, 40-220 ms of wall time on a loaded machine (their commits and
// checkpoint); a copy takes 2-3 ms. The server still runs its migrator at start (nothing left to apply). Fresh databases still meet the real migrations in tests/unit/migration-index.test.ts, foundation.test.ts,
// the *-migration tests and every server started as a process (serve-process, binary, the e2e server).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../src/db/sqlite/connection.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import { PRIVATE_FILE_MODE } from "../../src/private-files.ts";

let template: Uint8Array | null = null;

/** The migrated file's bytes: migrated as the server does it (its pragmas, WAL), then closed, which folds the WAL in. */
function migratedFile(): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), "linkprev-template-"));
  try {
    const path = join(dir, "linkprev.db");
    const sqlite = openSqlite(path);
    applyMigrations(sqlite);
    sqlite.close();
    return readFileSync(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes a migrated database at `path` (a file that does not exist yet), private as the server makes it. */
export function copyMigratedSqlite(path: string): void {
  template ??= migratedFile();
  writeFileSync(path, template, { mode: PRIVATE_FILE_MODE, flag: "wx" });
}
