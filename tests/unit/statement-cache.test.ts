// The SQLite connection keeps drizzle's compiled statements (src/db/sqlite/connection.ts): results must be what a fresh
// compilation gives, past the cache's bound and across a schema change.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { openDb } from "../../src/db/sqlite/connection.ts";

const dir = mkdtempSync(join(tmpdir(), "linkprev-statements-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("past 256 distinct queries the oldest are compiled again when asked, with the same answers", () => {
  const { sqlite, db } = openDb(join(dir, "bound.db"));
  const ask = (n: number) => db.all<{ n: number }>(sql.raw(`SELECT ${n} AS n`));
  for (let round = 0; round < 2; round++) for (let n = 0; n < 300; n++) expect(ask(n)).toEqual([{ n }]);
  expect(db.all(sql`SELECT ${"a parameter"} AS p`)).toEqual([{ p: "a parameter" }]);
  expect(db.all(sql`SELECT ${"another"} AS p`)).toEqual([{ p: "another" }]);
  sqlite.close();
});

test("a query prepared once (src/db/prepared.ts) still answers after 300 other queries pushed its statement out", () => {
  const { sqlite, db } = openDb(join(dir, "prepared.db"));
  const once = db
    .select({ v: sql<string>`${sql.placeholder("v")}` })
    .from(sql`(SELECT 1)`)
    .prepare();
  expect(once.all({ v: "before" })).toEqual([{ v: "before" }]);
  for (let n = 0; n < 300; n++) db.all(sql.raw(`SELECT ${n} AS n`));
  Bun.gc(true);
  expect(once.all({ v: "after" })).toEqual([{ v: "after" }]);
  sqlite.close();
});

test("a kept statement sees a column added since it was compiled", () => {
  const { sqlite, db } = openDb(join(dir, "schema.db"));
  sqlite.run("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)");
  sqlite.run("INSERT INTO notes (body) VALUES ('first')");
  const everything = () => db.all(sql.raw("SELECT * FROM notes"));
  expect(everything()).toEqual([{ id: 1, body: "first" }]);
  sqlite.run("ALTER TABLE notes ADD COLUMN tag TEXT DEFAULT 'none'");
  expect(everything()).toEqual([{ id: 1, body: "first", tag: "none" }]);
  sqlite.close();
});
