// The database a test server runs on, seen by the tests for seeding and assertions: the same SQL on SQLite and
// PostgreSQL. `?` placeholders; Dates and booleans as parameters (stored as ms and 0/1 on SQLite, timestamptz and
// boolean on PostgreSQL); rows come back alike (timestamps as ms numbers, booleans as 0/1, counts as numbers when
// cast: write `CAST(count(*) AS INTEGER)`, which both engines understand).
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import type { Change } from "../../src/db/change.ts";

type Param = string | number | boolean | null | Date;
export type Row = Record<string, unknown>;

export interface TestDb {
  readonly engine: "sqlite" | "postgres";
  run(text: string, ...params: Param[]): Promise<void>;
  get<T = Row>(text: string, ...params: Param[]): Promise<T | null>;
  all<T = Row>(text: string, ...params: Param[]): Promise<T[]>;
  close(): Promise<void>;
  /** Set by startTestServer: tells the server a link was written behind its back (seedLink), as an announcement would. */
  linkSeeded?: (change: Change) => void;
}

export function sqliteTestDb(path: string): TestDb {
  const sqlite = new Database(path, { strict: true });
  sqlite.run("PRAGMA busy_timeout = 5000");
  const bind = (params: Param[]) =>
    params.map((p) => (p instanceof Date ? p.getTime() : typeof p === "boolean" ? (p ? 1 : 0) : p));
  return {
    engine: "sqlite",
    run: async (text, ...params) => void sqlite.query(text).run(...(bind(params) as [])),
    get: async <T>(text: string, ...params: Param[]) =>
      (sqlite.query(text).get(...(bind(params) as [])) as T | null) ?? null,
    all: async <T>(text: string, ...params: Param[]) => sqlite.query(text).all(...(bind(params) as [])) as T[],
    close: async () => sqlite.close(),
  };
}

/** Rows as SQLite gives them: what the assertions were written for. */
function likeSqlite(row: Row): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row))
    out[key] = value instanceof Date ? value.getTime() : typeof value === "boolean" ? (value ? 1 : 0) : value;
  return out;
}

export function postgresTestDb(url: string): TestDb {
  const sql = new SQL({ url, max: 2 });
  let n = 0;
  const numbered = (text: string) => {
    n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  const query = async (text: string, params: Param[]) =>
    [...(await sql.unsafe(numbered(text), params))].map((row) => likeSqlite(row as Row));
  return {
    engine: "postgres",
    run: async (text, ...params) => void (await query(text, params)),
    get: async <T>(text: string, ...params: Param[]) => ((await query(text, params))[0] as T | undefined) ?? null,
    all: async <T>(text: string, ...params: Param[]) => (await query(text, params)) as T[],
    close: () => sql.close(),
  };
}
