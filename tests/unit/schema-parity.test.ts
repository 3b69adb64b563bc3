// The SQLite schema (src/db/sqlite/schema.ts) and its PostgreSQL twin (src/db/postgres/schema.ts) must describe the same
// tables, so that one set of services runs on either. Each intended difference is listed here, and only here.
import { describe, expect, test } from "bun:test";
import { is } from "drizzle-orm";
import { PgTable, getTableConfig as pgTableConfig } from "drizzle-orm/pg-core";
import { SQLiteTable, getTableConfig as sqliteTableConfig } from "drizzle-orm/sqlite-core";
import * as pg from "../../src/db/postgres/schema.ts";
import * as sqlite from "../../src/db/sqlite/schema.ts";

/** The intended differences; see the comments at each in db/postgres/schema.ts. */
const allowed = {
  /** rate_limits: the cluster-wide sign-in limit; uploads: UPLOADS_STORE=db. */
  pgOnlyTables: ["rate_limits", "uploads"],
  /** Rows and rollups commit in one statement on PostgreSQL, so there is no mark to keep, nor fetches waiting for a fold. */
  sqliteOnlyTables: ["view_rollup_mark", "crawler_fetch_queue"],
  /** Each node writes its own rollup rows (and the slot is part of their primary key). */
  pgOnlyColumns: ["view_rollups.slot"],
  /** Foreign keys cost views half their write throughput on PostgreSQL. */
  tablesWithoutForeignKeysOnPg: ["views"],
};

type Column = {
  name: string;
  dataType: string;
  notNull: boolean;
  primaryKey: boolean;
  hasDefault: boolean;
  unique: boolean;
};
type Table = {
  exportName: string;
  name: string;
  columns: Column[];
  primaryKeys: string[][];
  checks: string[];
  indexes: { name: string; unique: boolean; columns: string[]; partial: boolean }[];
  foreignKeys: { columns: string[]; references: string; columnsTo: string[] }[];
};

/** What drizzle's getTableConfig tells of a table, in either dialect (the shapes we read are the same). */
type AnyTableConfig = {
  name: string;
  columns: Array<{
    name: string;
    dataType: string;
    notNull: boolean;
    primary: boolean;
    hasDefault: boolean;
    isUnique: boolean;
  }>;
  primaryKeys: Array<{ columns: Array<{ name: string }> }>;
  checks: Array<{ name: string }>;
  indexes: Array<{ config: { name?: string; unique: boolean; columns: unknown[]; where?: unknown } }>;
  foreignKeys: Array<{
    reference(): { columns: Array<{ name: string }>; foreignTable: unknown; foreignColumns: Array<{ name: string }> };
  }>;
};

/** Every table a schema module exports, described alike whatever its dialect. */
function describeSchema(
  schema: Record<string, unknown>,
  isTable: (value: unknown) => boolean,
  tableConfig: (table: never) => unknown,
): Map<string, Table> {
  const config = (table: unknown) => tableConfig(table as never) as AnyTableConfig;
  const tables = new Map<string, Table>();
  for (const [exportName, value] of Object.entries(schema)) {
    if (!isTable(value)) continue;
    const c = config(value);
    tables.set(c.name, {
      exportName,
      name: c.name,
      columns: c.columns.map((col) => ({
        name: col.name,
        dataType: col.dataType,
        notNull: col.notNull,
        primaryKey: col.primary,
        hasDefault: col.hasDefault,
        unique: col.isUnique,
      })),
      primaryKeys: c.primaryKeys.map((k) => k.columns.map((col) => col.name)),
      checks: c.checks.map((k) => k.name).sort(),
      indexes: c.indexes.map((i) => ({
        name: i.config.name ?? "",
        unique: i.config.unique,
        columns: i.config.columns.map((col) =>
          typeof col === "object" && col !== null && "name" in col
            ? String((col as { name?: string }).name ?? "<sql>")
            : "<sql>",
        ),
        partial: i.config.where !== undefined,
      })),
      foreignKeys: c.foreignKeys.map((fk) => {
        const r = fk.reference();
        return {
          columns: r.columns.map((col) => col.name),
          references: config(r.foreignTable).name,
          columnsTo: r.foreignColumns.map((col) => col.name),
        };
      }),
    });
  }
  return tables;
}

const sqliteTables = describeSchema(sqlite, (value) => is(value, SQLiteTable), sqliteTableConfig);
const pgTables = describeSchema(pg, (value) => is(value, PgTable), pgTableConfig);
const shared = [...sqliteTables.keys()].filter((name) => pgTables.has(name)).sort();
const withoutPgOnlyColumns = (table: string, columns: string[]) =>
  columns.filter((c) => !allowed.pgOnlyColumns.includes(`${table}.${c}`));

describe("schema parity (SQLite and PostgreSQL)", () => {
  test("both walks found the tables", () => {
    expect(sqliteTables.size).toBeGreaterThan(10);
    expect(pgTables.size).toBeGreaterThan(10);
  });

  test("the same tables, apart from the listed ones", () => {
    const sqliteNames = [...sqliteTables.keys()].filter((n) => !allowed.sqliteOnlyTables.includes(n)).sort();
    const pgNames = [...pgTables.keys()].filter((n) => !allowed.pgOnlyTables.includes(n)).sort();
    expect(pgNames).toEqual(sqliteNames);
    // The allow-list names tables that exist, on the side it says.
    for (const n of allowed.sqliteOnlyTables) expect([sqliteTables.has(n), pgTables.has(n)]).toEqual([true, false]);
    for (const n of allowed.pgOnlyTables) expect([sqliteTables.has(n), pgTables.has(n)]).toEqual([false, true]);
  });

  test("each shared table under the same export name", () => {
    for (const name of shared)
      expect(`${name}: ${pgTables.get(name)!.exportName}`).toBe(`${name}: ${sqliteTables.get(name)!.exportName}`);
  });

  test("the same columns, nullability, primary keys, defaults, uniqueness and JS types", () => {
    for (const name of shared) {
      const sqliteColumns = sqliteTables.get(name)!.columns;
      const pgColumns = pgTables.get(name)!.columns.filter((c) => !allowed.pgOnlyColumns.includes(`${name}.${c.name}`));
      // Prefixed with the table so a failure names it.
      expect(pgColumns.map((c) => ({ table: name, ...c }))).toEqual(sqliteColumns.map((c) => ({ table: name, ...c })));
    }
    for (const entry of allowed.pgOnlyColumns) {
      const [table, column] = entry.split(".");
      expect(sqliteTables.get(table!)!.columns.some((c) => c.name === column)).toBe(false);
      expect(pgTables.get(table!)!.columns.some((c) => c.name === column)).toBe(true);
    }
  });

  test("the same composite primary keys, but for the PostgreSQL-only columns in them", () => {
    for (const name of shared) {
      const pgKeys = pgTables.get(name)!.primaryKeys.map((cols) => withoutPgOnlyColumns(name, cols));
      expect({ table: name, keys: pgKeys }).toEqual({ table: name, keys: sqliteTables.get(name)!.primaryKeys });
    }
    expect(pgTables.get("view_rollups")!.primaryKeys).toEqual([["link_id", "day", "platform", "slot"]]);
  });

  test("the same CHECK constraints and indexes", () => {
    for (const name of shared) {
      const s = sqliteTables.get(name)!;
      const p = pgTables.get(name)!;
      expect({ table: name, checks: p.checks }).toEqual({ table: name, checks: s.checks });
      expect({ table: name, indexes: p.indexes }).toEqual({ table: name, indexes: s.indexes });
    }
    expect(pgTables.get("links")!.indexes.find((i) => i.name === "links_live_slug_unique")).toMatchObject({
      unique: true,
      partial: true,
    });
  });

  test("the same foreign keys, except on the tables listed", () => {
    for (const name of shared) {
      const p = pgTables.get(name)!.foreignKeys;
      if (allowed.tablesWithoutForeignKeysOnPg.includes(name)) {
        expect({ table: name, foreignKeys: p }).toEqual({ table: name, foreignKeys: [] });
        continue;
      }
      expect({ table: name, foreignKeys: p }).toEqual({
        table: name,
        foreignKeys: sqliteTables.get(name)!.foreignKeys,
      });
    }
  });
});

// The same select and insert types for the services that use them (checked by tsc, not at run time).
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type SameTypes<
  S extends { $inferSelect: unknown; $inferInsert: unknown },
  P extends { $inferSelect: unknown; $inferInsert: unknown },
> = [Equal<S["$inferSelect"], P["$inferSelect"]>, Equal<S["$inferInsert"], P["$inferInsert"]>];
const both: [true, true] = [true, true];
const typeParity: Record<string, [true, true]> = {
  users: both satisfies SameTypes<typeof sqlite.users, typeof pg.users>,
  links: both satisfies SameTypes<typeof sqlite.links, typeof pg.links>,
  subscriptions: both satisfies SameTypes<typeof sqlite.subscriptions, typeof pg.subscriptions>,
  payments: both satisfies SameTypes<typeof sqlite.payments, typeof pg.payments>,
  userAgents: both satisfies SameTypes<typeof sqlite.userAgents, typeof pg.userAgents>,
  views: both satisfies SameTypes<typeof sqlite.views, typeof pg.views>,
  userConsents: both satisfies SameTypes<typeof sqlite.userConsents, typeof pg.userConsents>,
  sessions: both satisfies SameTypes<typeof sqlite.sessions, typeof pg.sessions>,
  apiTokens: both satisfies SameTypes<typeof sqlite.apiTokens, typeof pg.apiTokens>,
  loginLinks: both satisfies SameTypes<typeof sqlite.loginLinks, typeof pg.loginLinks>,
  stripeEvents: both satisfies SameTypes<typeof sqlite.stripeEvents, typeof pg.stripeEvents>,
  viewVisitors: both satisfies SameTypes<typeof sqlite.viewVisitors, typeof pg.viewVisitors>,
  retiredUserSlugs: both satisfies SameTypes<typeof sqlite.retiredUserSlugs, typeof pg.retiredUserSlugs>,
  linkRules: both satisfies SameTypes<typeof sqlite.linkRules, typeof pg.linkRules>,
  domains: both satisfies SameTypes<typeof sqlite.domains, typeof pg.domains>,
  hostMapVersion: both satisfies SameTypes<typeof sqlite.hostMapVersion, typeof pg.hostMapVersion>,
  viewBatches: both satisfies SameTypes<typeof sqlite.viewBatches, typeof pg.viewBatches>,
  webhookClickCounts: both satisfies SameTypes<typeof sqlite.webhookClickCounts, typeof pg.webhookClickCounts>,
  linkTotals: both satisfies SameTypes<typeof sqlite.linkTotals, typeof pg.linkTotals>,
  referrerRollups: both satisfies SameTypes<typeof sqlite.referrerRollups, typeof pg.referrerRollups>,
  threatEntries: both satisfies SameTypes<typeof sqlite.threatEntries, typeof pg.threatEntries>,
  abuseReports: both satisfies SameTypes<typeof sqlite.abuseReports, typeof pg.abuseReports>,
  auditLog: both satisfies SameTypes<typeof sqlite.auditLog, typeof pg.auditLog>,
  threatFeeds: both satisfies SameTypes<typeof sqlite.threatFeeds, typeof pg.threatFeeds>,
  webhookEndpoints: both satisfies SameTypes<typeof sqlite.webhookEndpoints, typeof pg.webhookEndpoints>,
  webhookDeliveries: both satisfies SameTypes<typeof sqlite.webhookDeliveries, typeof pg.webhookDeliveries>,
  destinations: both satisfies SameTypes<typeof sqlite.destinations, typeof pg.destinations>,
  linkOldAddresses: both satisfies SameTypes<typeof sqlite.linkOldAddresses, typeof pg.linkOldAddresses>,
  workspaces: both satisfies SameTypes<typeof sqlite.workspaces, typeof pg.workspaces>,
  workspaceMembers: both satisfies SameTypes<typeof sqlite.workspaceMembers, typeof pg.workspaceMembers>,
  crawlerFetches: both satisfies SameTypes<typeof sqlite.crawlerFetches, typeof pg.crawlerFetches>,
  crawlerFirstFetches: both satisfies SameTypes<typeof sqlite.crawlerFirstFetches, typeof pg.crawlerFirstFetches>,
  workspaceInvites: both satisfies SameTypes<typeof sqlite.workspaceInvites, typeof pg.workspaceInvites>,
  qrStyles: both satisfies SameTypes<typeof sqlite.qrStyles, typeof pg.qrStyles>,
  linkQrStyles: both satisfies SameTypes<typeof sqlite.linkQrStyles, typeof pg.linkQrStyles>,
  auditEvents: both satisfies SameTypes<typeof sqlite.auditEvents, typeof pg.auditEvents>,
};
// view_rollups: the same but for the PostgreSQL-only slot.
const rollupParity: [true, true] = [true, true] satisfies [
  Equal<typeof sqlite.viewRollups.$inferSelect, Omit<typeof pg.viewRollups.$inferSelect, "slot">>,
  Equal<typeof sqlite.viewRollups.$inferInsert, Omit<typeof pg.viewRollups.$inferInsert, "slot">>,
];
const exportedTypes: [true, true, true] = [true, true, true] satisfies [
  Equal<sqlite.User, pg.User>,
  Equal<sqlite.Link, pg.Link>,
  Equal<sqlite.Subscription, pg.Subscription>,
];

test("the type-level parity list covers every shared table", () => {
  expect([...Object.keys(typeParity), "viewRollups"].sort()).toEqual(
    shared.map((n) => sqliteTables.get(n)!.exportName).sort(),
  );
  expect([rollupParity, exportedTypes]).toBeTruthy();
});
