// Applies the embedded migrations in order, each in its own transaction, recording what ran.
// drizzle's own migrator reads a folder from disk, which a compiled binary does not have.
import type { Database } from "bun:sqlite";
import { systemClock } from "../../clock.ts";
import { migrations } from "./migrations/index.ts";

export function applyMigrations(sqlite: Database, list = migrations): string[] {
  sqlite.run(`CREATE TABLE IF NOT EXISTS __migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`);
  const applied = new Set(
    sqlite
      .query<{ name: string }, []>(`SELECT name FROM __migrations`)
      .all()
      .map((r) => r.name),
  );
  const ran: string[] = [];
  for (const migration of list) {
    if (applied.has(migration.name)) continue;
    sqlite
      .transaction(() => {
        for (const statement of migration.sql.split("--> statement-breakpoint")) {
          if (statement.trim()) sqlite.run(statement);
        }
        sqlite.run(`INSERT INTO __migrations (name, applied_at) VALUES (?, ?)`, [migration.name, systemClock.now()]);
      })
      .immediate();
    ran.push(migration.name);
  }
  return ran;
}
