// Applies the embedded PostgreSQL migrations in one transaction, under an advisory lock, recording what ran.
import type { SQL } from "bun";
import { systemClock } from "../../clock.ts";
import { migrations } from "./migrations/index.ts";

/** pg_advisory_xact_lock key of the migrator: any constant that no other lock in the database uses. */
const MIGRATION_LOCK = 7_240_617;

export async function applyPostgresMigrations(client: SQL, list = migrations): Promise<string[]> {
  return client.begin(async (tx) => {
    // Nodes starting together queue here; the later ones then find every migration recorded.
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS __migrations (name text PRIMARY KEY, applied_at bigint NOT NULL)`;
    const applied = new Set((await tx`SELECT name FROM __migrations`).map((row: { name: string }) => row.name));
    const ran: string[] = [];
    for (const migration of list) {
      if (applied.has(migration.name)) continue;
      for (const statement of migration.sql.split("--> statement-breakpoint"))
        if (statement.trim()) await tx.unsafe(statement);
      await tx`INSERT INTO __migrations (name, applied_at) VALUES (${migration.name}, ${systemClock.now()})`;
      ran.push(migration.name);
    }
    return ran;
  });
}
