// db/tables.ts switches its tables to the engine's once, at start (openPlatform): a table or column read at a
// module's top level keeps the SQLite object on PostgreSQL. Every use must sit inside a function.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript5";

const SRC = join(import.meta.dir, "../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** Code that runs later, not when the module loads. */
const deferred = (node: ts.Node) =>
  ts.isFunctionLike(node) ||
  (ts.isPropertyDeclaration(node) && !node.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword));

/** `file:line name` for each table (imported from db/tables.ts) used where the module's own code runs at load. */
export function topLevelTableUses(path: string, text: string): string[] {
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const tables = new Set<string>();
  for (const statement of source.statements) {
    if (
      !ts.isImportDeclaration(statement) ||
      !/\/db\/tables\.ts$/.test((statement.moduleSpecifier as ts.StringLiteral).text)
    )
      continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings))
      for (const element of bindings.elements) if (!element.isTypeOnly) tables.add(element.name.text);
  }
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (deferred(node) || ts.isTypeNode(node) || ts.isImportDeclaration(node)) return;
    if (ts.isIdentifier(node) && tables.has(node.text)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(
        `${relative(SRC, path)}:${line} ${ts.isPropertyAccessExpression(node.parent) ? node.parent.getText() : node.text}`,
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("no module reads a table or column at its top level, where the start-up switch of engine cannot reach it", () => {
  const found = sourceFiles(SRC).flatMap((path) => topLevelTableUses(path, readFileSync(path, "utf8")));
  expect(found).toEqual([]);
});

test("the check sees a column captured at the top level, and not one read inside a function", () => {
  const captured = `import { links } from "../db/tables.ts";\nconst COLUMNS = [links.imageUrl] as const;\nexport const f = () => links.id;`;
  expect(topLevelTableUses(join(SRC, "links/example.ts"), captured)).toEqual(["links/example.ts:2 links.imageUrl"]);
});
