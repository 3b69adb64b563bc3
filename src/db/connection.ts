import { Database } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import * as schema from "./schema.ts";

export type Db = ReturnType<typeof drizzle<typeof schema>>;

/** Opens the SQLite file with the pragmas every connection (server, view writer, admin commands) needs. */
export function openSqlite(path: string): Database {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA busy_timeout = 5000");
  return sqlite;
}

export function openDb(path: string): { sqlite: Database; db: Db } {
  const sqlite = openSqlite(path);
  return { sqlite, db: drizzle({ client: sqlite, schema }) };
}
