import { Database, type Statement } from "bun:sqlite";
import { dirname } from "node:path";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";
import { makePrivateDir, touchPrivateFile } from "../../private-files.ts";
import * as schema from "./schema.ts";

/** Without drizzle's `$client` (bun:sqlite's Database here, Bun's SQL on PostgreSQL): services never reach the driver. */
export type Db = BunSQLiteDatabase<typeof schema>;

/** Opens the SQLite file with the pragmas every connection (server, view writer, admin commands) needs. */
export function openSqlite(path: string): Database {
  // Private to the server's user (0700/0600) whatever the umask: created here, before SQLite opens the file.
  makePrivateDir(dirname(path));
  touchPrivateFile(path);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.run("PRAGMA journal_mode = WAL");
  sqlite.run("PRAGMA synchronous = NORMAL");
  sqlite.run("PRAGMA foreign_keys = ON");
  sqlite.run("PRAGMA busy_timeout = 5000");
  return sqlite;
}

/**
 * Compiled statements kept per connection. Drizzle compiles every query anew (`prepare`), and SQLite's parsing and
 * planning were a sixth of a dashboard's time; the queries an app runs are a few dozen texts, so they stay compiled.
 * Safe to share: bun:sqlite runs a statement to its end before drizzle returns, and nothing here iterates lazily.
 */
const STATEMENT_CACHE_SIZE = 256;

function withStatementCache(sqlite: Database): Database {
  const compiled = new Map<string, Statement>();
  const prepare = (sql: string) => {
    let statement = compiled.get(sql);
    if (statement !== undefined) {
      // Most recently used last, so that the first entry is the one to drop.
      compiled.delete(sql);
    } else {
      statement = sqlite.prepare(sql);
      // The oldest is dropped, not finalized: a query prepared once (src/links/list-page.ts) may still hold it, and
      // Bun finalizes a statement when it is collected.
      if (compiled.size >= STATEMENT_CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
    }
    compiled.set(sql, statement);
    return statement;
  };
  return new Proxy(sqlite, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function openDb(path: string): { sqlite: Database; db: Db } {
  const sqlite = openSqlite(path);
  return { sqlite, db: drizzle({ client: withStatementCache(sqlite), schema }) };
}
