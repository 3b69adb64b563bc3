// Migrations are written by hand and applied by name (docs/migrations.md): each engine's index.ts must list every
// .sql file of its folder, in number order, embedding the file as it is; and the SQLite migrations must end at the
// tables and columns of src/db/sqlite/schema.ts (the PostgreSQL ones are held to theirs by the PostgreSQL pass, which
// migrates a template database before any test runs, and by tests/unit/schema-parity.test.ts).
import { describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { readdirSync } from "node:fs";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { migrations as postgresMigrations } from "../../src/db/postgres/migrations/index.ts";
import { migrations as sqliteMigrations } from "../../src/db/sqlite/migrations/index.ts";
import { applyMigrations } from "../../src/db/sqlite/migrate.ts";
import * as sqliteSchema from "../../src/db/sqlite/schema.ts";

const engines = [
  { engine: "sqlite", migrations: sqliteMigrations },
  { engine: "postgres", migrations: postgresMigrations },
] as const;

describe.each(engines)("$engine migrations", ({ engine, migrations }) => {
  const folder = new URL(`../../src/db/${engine}/migrations/`, import.meta.url);
  const files = readdirSync(folder)
    .filter((name) => name.endsWith(".sql"))
    .map((name) => name.slice(0, -".sql".length))
    .sort();

  test("index.ts lists every .sql file of the folder, in number order", () => {
    expect(migrations.map((m) => m.name)).toEqual(files);
  });

  test("numbers are four digits, each used once (gaps are numbers never used: docs/migrations.md)", () => {
    const numbers = migrations.map((m) => m.name.match(/^(\d{4})_[a-z0-9_]+$/)?.[1]);
    expect(numbers.every((n) => n !== undefined)).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  test("each embedded migration is its file as written", async () => {
    for (const m of migrations) expect(m.sql).toBe(await Bun.file(new URL(`${m.name}.sql`, folder)).text());
  });
});

test("the SQLite migrations end at schema.ts's tables and columns", () => {
  const sqlite = new Database(":memory:");
  applyMigrations(sqlite);
  const columnsOf = (table: string) =>
    sqlite
      .query<{ name: string }, []>(`SELECT name FROM pragma_table_xinfo('${table}')`)
      .all()
      .map((c) => c.name)
      .sort();
  const tables = Object.values(sqliteSchema).filter((value) => value instanceof SQLiteTable);
  expect(tables.length).toBeGreaterThan(20);
  for (const table of tables) {
    const { name, columns } = getTableConfig(table);
    expect({ name, columns: columnsOf(name) }).toEqual({ name, columns: columns.map((c) => c.name).sort() });
  }
});
