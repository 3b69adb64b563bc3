// A query builds its SQL from the tables of the database it is given (src/db/tables.ts tablesOf): drizzle needs the
// PostgreSQL engine's pg-core tables and SQLite's sqlite-core ones. Two ways back to the trap of one process-global
// table object per name, each checked here: a mutable binding exported under src/db/ (a table switched at start-up,
// which a module could capture before the switch), and an engine's schema imported for its values outside src/db/
// (its tables would be used whatever engine runs). `admin copy-to-postgres` reads both engines on purpose.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript5";

const SRC = join(import.meta.dir, "../../src");
const MAY_IMPORT_ENGINE_TABLES = ["admin/copy-tables.ts"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

const parse = (path: string, text: string) =>
  ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

const lineOf = (source: ts.SourceFile, node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;

/** `file:line` of each exported `let` or `var`. */
export function mutableExports(path: string, text: string): string[] {
  const source = parse(path, text);
  return source.statements
    .filter(
      (statement) =>
        ts.isVariableStatement(statement) &&
        statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) &&
        !(statement.declarationList.flags & ts.NodeFlags.Const),
    )
    .map((statement) => `${relative(SRC, path)}:${lineOf(source, statement)}`);
}

/** `file:line` of each import of an engine's schema that brings values (tables), not only types. */
export function engineTableImports(path: string, text: string): string[] {
  const source = parse(path, text);
  return source.statements
    .filter((statement): statement is ts.ImportDeclaration => ts.isImportDeclaration(statement))
    .filter((statement) =>
      /\/db\/(sqlite|postgres)\/schema(\.ts|\/)/.test((statement.moduleSpecifier as ts.StringLiteral).text),
    )
    .filter((statement) => {
      const clause = statement.importClause;
      if (!clause || clause.isTypeOnly) return !clause;
      const bindings = clause.namedBindings;
      if (clause.name || !bindings || ts.isNamespaceImport(bindings)) return true;
      return bindings.elements.some((element) => !element.isTypeOnly);
    })
    .map((statement) => `${relative(SRC, path)}:${lineOf(source, statement)}`);
}

test("nothing under src/db/ exports a mutable binding (tables reach queries through their database)", () => {
  const found = sourceFiles(join(SRC, "db")).flatMap((path) => mutableExports(path, readFileSync(path, "utf8")));
  expect(found).toEqual([]);
});

test("outside src/db/, no module imports an engine's tables: it takes them from its database (tablesOf)", () => {
  const found = sourceFiles(SRC)
    .filter((path) => !relative(SRC, path).startsWith("db/") && !MAY_IMPORT_ENGINE_TABLES.includes(relative(SRC, path)))
    .flatMap((path) => engineTableImports(path, readFileSync(path, "utf8")));
  expect(found).toEqual([]);
});

test("the checks see an exported let and a value import of a schema, and let consts and type imports pass", () => {
  expect(
    mutableExports(join(SRC, "db/example.ts"), `export let links = 1;\nexport const users = 2;\nlet own = 3;`),
  ).toEqual(["db/example.ts:1"]);
  const imports = [
    `import type { Link } from "../db/sqlite/schema.ts";`,
    `import { type User } from "../db/postgres/schema.ts";`,
    `import { links } from "../db/sqlite/schema.ts";`,
    `import * as pg from "../db/postgres/schema/links.ts";`,
  ].join("\n");
  expect(engineTableImports(join(SRC, "links/example.ts"), imports)).toEqual([
    "links/example.ts:3",
    "links/example.ts:4",
  ]);
});
