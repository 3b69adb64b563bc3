// Decision records carry a date and a status, and the index lists each one with that status.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const folder = join(import.meta.dir, "../../docs/decisions");

test("every decision record has Date and Status lines and a row in the index with the same status", () => {
  const index = readFileSync(join(folder, "README.md"), "utf8");
  const records = readdirSync(folder).filter((name) => /^\d{4}-.+\.md$/.test(name));
  expect(records.length).toBeGreaterThan(0);
  for (const name of records) {
    const text = readFileSync(join(folder, name), "utf8");
    expect(text, name).toMatch(/^Date: \d{4}-\d{2}-\d{2}\s*$/m);
    const status = text.match(/^Status: (.+?)\s*$/m)?.[1];
    expect(status, `${name} has a Status line`).toMatch(/^(accepted|proposed|superseded by \d{4})$/);
    const row = index.split("\n").find((line) => line.includes(`](${name})`));
    expect(row, `docs/decisions/README.md lists ${name}`).toBeDefined();
    expect(row!.split("|").map((cell) => cell.trim())[2], `${name}: the index gives its status`).toBe(status!);
  }
});
