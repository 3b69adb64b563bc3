// `linkprev admin backup FILE`: a consistent copy of the SQLite database while the server runs (VACUUM INTO reads
// one snapshot), then the uploads folder beside it (FILE.uploads/) when images are stored in the data directory.
// The database goes first: every image it references was written before its link was committed, so it is
// in the folder copied after. Restoring is docs/self-hosting.md#backup-and-restore.
import { cpSync, existsSync } from "node:fs";
import type { Config } from "../config.ts";
import { openDb } from "../db/sqlite/connection.ts";

/** Where the uploads of backup `file` go. */
export const uploadsBackupOf = (file: string) => `${file}.uploads`;

/** Writes the backup; returns what was written, for the command's message. */
export function backupSqlite(config: Config, file: string): string[] {
  const { sqlite } = openDb(config.dbPath);
  try {
    sqlite.run("VACUUM INTO ?", [file]);
  } finally {
    sqlite.close();
  }
  if (config.uploads.kind !== "dir" || !existsSync(config.uploadsDir)) return [file];
  cpSync(config.uploadsDir, uploadsBackupOf(file), { recursive: true, errorOnExist: true, force: false });
  return [file, uploadsBackupOf(file)];
}
