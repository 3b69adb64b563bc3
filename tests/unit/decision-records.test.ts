// Decision records carry a date and a status, the index lists each one with that status, and the links between
// records (Supersedes / superseded by, Amends / Amended by) point at records that exist and are written at both ends.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const folder = join(import.meta.dir, "../../docs/decisions");
const index = readFileSync(join(folder, "README.md"), "utf8");
const records = readdirSync(folder)
  .filter((name) => /^\d{4}-.+\.md$/.test(name))
  .map((name) => ({ name, number: name.slice(0, 4), text: readFileSync(join(folder, name), "utf8") }));

/** The record numbers a header line names, e.g. `Amends: 0001, 0022`. */
const numbersOn = (text: string, field: string): string[] =>
  text
    .match(new RegExp(`^${field}: (.+?)\\s*$`, "m"))?.[1]
    ?.split(",")
    .map((number) => number.trim()) ?? [];

const statusOf = (text: string) => text.match(/^Status: (.+?)\s*$/m)?.[1];
const supersededBy = (text: string) => statusOf(text)?.match(/^superseded by (\d{4})$/)?.[1];

test("every decision record has Date and Status lines and a row in the index with the same status", () => {
  expect(records.length).toBeGreaterThan(0);
  for (const { name, text } of records) {
    expect(text, name).toMatch(/^Date: \d{4}-\d{2}-\d{2}\s*$/m);
    const status = statusOf(text);
    expect(status, `${name} has a Status line`).toMatch(/^(accepted|proposed|superseded by \d{4})$/);
    const row = index.split("\n").find((line) => line.includes(`](${name})`));
    expect(row, `docs/decisions/README.md lists ${name}`).toBeDefined();
    const amendedBy = numbersOn(text, "Amended by");
    const shown = amendedBy.length > 0 ? `${status}; amended by ${amendedBy.join(", ")}` : status;
    expect(row!.split("|").map((cell) => cell.trim())[2], `${name}: the index gives its status`).toBe(shown!);
  }
});

test("Supersedes and Amends are written at both ends, between records that exist", () => {
  const byNumber = new Map(records.map((record) => [record.number, record]));
  const problems: string[] = [];
  for (const { name, number, text } of records) {
    // [field, the records it names, whether those are earlier, what the named record must say back]
    const links: Array<[string, string[], boolean, (other: string) => boolean]> = [
      ["Supersedes", numbersOn(text, "Supersedes"), true, (other) => supersededBy(other) === number],
      [
        "superseded by",
        [supersededBy(text)].filter((n) => n !== undefined),
        false,
        (other) => numbersOn(other, "Supersedes").includes(number),
      ],
      ["Amends", numbersOn(text, "Amends"), true, (other) => numbersOn(other, "Amended by").includes(number)],
      ["Amended by", numbersOn(text, "Amended by"), false, (other) => numbersOn(other, "Amends").includes(number)],
    ];
    for (const [field, numbers, earlier, saysBack] of links) {
      for (const other of numbers) {
        const record = byNumber.get(other);
        if (!record) problems.push(`${name}: ${field} ${other}, which is no record`);
        else if (!saysBack(record.text))
          problems.push(`${name}: ${field} ${other}, but ${record.name} does not say so back`);
        else if (earlier !== other < number)
          problems.push(`${name}: ${field} ${other}: only a later record amends or supersedes`);
      }
    }
  }
  expect(problems).toEqual([]);
});
