// No file in src/, islands/ or cli/ grows past 300 lines: a longer one holds more than one concern and is split
// along its seam. Data tables and generated code are exempt, each named below with why.
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "../..");
const CHECKED = ["src", "islands", "cli"];
const MAX_LINES = 300;

/** Data tables: one row per fact or table column, which reads best as one list. */
const DATA_TABLES = [
  // The facts of each platform's card (sizes, text limits, crops).
  "src/previews/platforms.ts",
];

/** The migrations' SQL: applied as written and never edited once released (docs/migrations.md). */
const MIGRATIONS = /^src\/db\/(sqlite|postgres)\/migrations\/\d{4}_[a-z0-9_]+\.sql$/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [relative(ROOT, path)];
  });
}

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

test(`no file in ${CHECKED.join("/, ")}/ is over ${MAX_LINES} lines, except data tables and migrations`, () => {
  const files = CHECKED.flatMap((dir) => filesUnder(join(ROOT, dir)));
  expect(files.length).toBeGreaterThan(100);
  const tooLong = files
    .filter((path) => !DATA_TABLES.includes(path) && !MIGRATIONS.test(path))
    .map((path) => ({ path, lines: lineCount(readFileSync(join(ROOT, path), "utf8")) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ path, lines }) => `${path}: ${lines} lines`);
  expect(tooLong).toEqual([]);
});

test("every exemption names a file that exists", () => {
  expect(DATA_TABLES.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  expect(filesUnder(join(ROOT, "src/db")).some((path) => MIGRATIONS.test(path))).toBe(true);
});
