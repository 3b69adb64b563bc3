// Services query through `Db`, which is typed as SQLite's drizzle database also on PostgreSQL (src/db/postgres/
// portable.ts; docs/decisions/0052 says why drizzle allows no neutral type). So a call only SQLite's drizzle has would
// compile and fail only in the PostgreSQL pass: the builders' `.all()`, `.get()` and `.run()` (PostgreSQL's are
// awaited). This check finds them by their shape in any file that does not say it works on SQLite by importing
// bun:sqlite or drizzle's SQLite modules. (`db.$client` does not compile: Db leaves it out, sqlite/connection.ts.)
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript5";

const SRC = join(import.meta.dir, "../../src");
const SQLITE_MODULES = /^(bun:sqlite|drizzle-orm\/(bun-sqlite|sqlite-core))$/;
const SQLITE_ONLY_CALLS = new Set(["all", "get", "run"]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** `file:line call` for each SQLite-only drizzle call in a file that does not import SQLite. */
export function sqliteOnlyCalls(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const importsSqlite = source.statements.some(
    (statement) =>
      ts.isImportDeclaration(statement) && SQLITE_MODULES.test((statement.moduleSpecifier as ts.StringLiteral).text),
  );
  if (importsSqlite) return [];
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${relative(SRC, path)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1} ${what}`);
  const visit = (node: ts.Node) => {
    if (
      ts.isCallExpression(node) &&
      node.arguments.length === 0 &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.kind !== ts.SyntaxKind.ThisKeyword &&
      SQLITE_ONLY_CALLS.has(node.expression.name.text)
    )
      at(node, `.${node.expression.name.text}()`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("no SQLite-only drizzle call outside code that imports SQLite", () => {
  const found = sourceFiles(SRC).flatMap((path) => sqliteOnlyCalls(path, readFileSync(path, "utf8")));
  expect(found).toEqual([]);
});

test("the check sees .all(), .get() and .run(), and passes Map.get(key), this.run() and SQLite's own code", () => {
  const service = [
    "const rows = await db.select().from(links).all();",
    "const row = await db.select().from(links).where(x).get();",
    "await db.delete(links).run();",
    "byId.get(1); this.run(); await db.select().from(links);",
  ].join("\n");
  expect(sqliteOnlyCalls(join(SRC, "links/example.ts"), service)).toEqual([
    "links/example.ts:1 .all()",
    "links/example.ts:2 .get()",
    "links/example.ts:3 .run()",
  ]);
  expect(
    sqliteOnlyCalls(join(SRC, "db/sqlite/example.ts"), `import { Database } from "bun:sqlite";\n${service}`),
  ).toEqual([]);
});
