// What the server writes to disk (the data directory, the SQLite files, uploads) is private to its user, whatever
// the umask it was started with: directories 0700, files 0600. The mode given at creation is narrowed by the umask
// (never widened), so it is set again explicitly.
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs";
import { chmod, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` and any missing parents as 0700; a directory that already exists keeps the operator's mode. */
export function makePrivateDir(dir: string): void {
  const first = mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (first === undefined) return;
  for (let created = dir; ; created = dirname(created)) {
    chmodSync(created, PRIVATE_DIR_MODE);
    if (created === first || dirname(created) === created) break;
  }
}

/**
 * Creates an empty 0600 file unless it exists. For SQLite's database file before SQLite opens it: SQLite gives its
 * -wal and -shm files the database file's mode.
 */
export function touchPrivateFile(path: string): void {
  let fd: number;
  try {
    fd = openSync(path, "wx", PRIVATE_FILE_MODE);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return;
    throw error;
  }
  closeSync(fd);
  chmodSync(path, PRIVATE_FILE_MODE);
}

/** Writes a new file as 0600 (created 0600 or narrower by the umask, then set). */
export async function writePrivateFile(path: string, bytes: Uint8Array): Promise<void> {
  await writeFile(path, bytes, { mode: PRIVATE_FILE_MODE });
  await chmod(path, PRIVATE_FILE_MODE);
}
