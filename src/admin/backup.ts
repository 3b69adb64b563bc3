// `linkprev admin backup FILE`: a consistent copy of the SQLite database while the server runs (VACUUM INTO reads
// one snapshot), then the uploads folder beside it (FILE.uploads/) when images are stored in the data directory.
// The database goes first: every image it references was written before its link was committed, so it is
// in the folder copied after. Restoring is docs/self-hosting.md#backup-and-restore. The copy holds everything the
// data directory does (sessions, tokens' hashes, visitors' hashes): private to the operator like it, 0600 and 0700.
import { cpSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/config.ts";
import { openDb } from "../db/sqlite/connection.ts";
import { makePrivateDir, touchPrivateFile } from "../private-files.ts";

/** Where the uploads of backup `file` go. */
export const uploadsBackupOf = (file: string) => `${file}.uploads`;

/** Writes the backup; returns what was written, for the command's message. */
export function backupSqlite(config: Config, file: string): string[] {
  const { sqlite } = openDb(config.dbPath);
  try {
    // VACUUM INTO fills an empty file and keeps its mode.
    touchPrivateFile(file);
    sqlite.run("VACUUM INTO ?", [file]);
  } finally {
    sqlite.close();
  }
  if (config.uploads.kind !== "dir" || !existsSync(config.uploadsDir)) return [file];
  // Into a folder made private first: the copy is never readable by others, even for a moment.
  const copy = uploadsBackupOf(file);
  makePrivateDir(copy);
  for (const name of readdirSync(config.uploadsDir))
    cpSync(join(config.uploadsDir, name), join(copy, name), { recursive: true, errorOnExist: true, force: false });
  return [file, uploadsBackupOf(file)];
}
