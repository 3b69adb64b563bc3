// One clock and one logger (docs/decisions/0054): outside src/clock.ts and src/observability/log.ts, nothing in src/
// reads the time itself or writes to the console. A service takes `clock` and `log` from its deps, so that a test's
// clock reaches it and LOG_FORMAT=json writes JSON lines only (tests/integration/json-log.test.ts). `new Date(t)`
// of a known time is fine; `new Date()` is the time now. src/client/ runs in the browser, which has neither.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = join(import.meta.dir, "../..");

/** The only places that may: the clock and the logger themselves. */
const ALLOWED: Record<string, RegExp[]> = {
  "src/clock.ts": [/\bDate\.now\b/],
  "src/observability/log.ts": [/\bnew Date\(\s*\)/],
};
const FORBIDDEN = [/\bDate\.now\b/, /\bnew Date\(\s*\)/, /\bconsole\./];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return path === join(ROOT, "src/client") ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The code without its comments, line by line (a comment may name what it explains). */
const codeLines = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .split("\n")
    .map((line) => line.replace(/(^|[^:"'`\\])\/\/.*$/, "$1"));

test("src/ reads the time through its clock and writes lines through its logger only", () => {
  const found: string[] = [];
  for (const path of sourceFiles(join(ROOT, "src"))) {
    const file = relative(ROOT, path);
    codeLines(readFileSync(path, "utf8")).forEach((line, index) => {
      for (const pattern of FORBIDDEN)
        if (pattern.test(line) && !(ALLOWED[file] ?? []).some((allowed) => allowed.source === pattern.source))
          found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});
