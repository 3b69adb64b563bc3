// The CSV cells of GET /api/links/export.csv: always quoted, quotes doubled, formulas defused (OWASP CSV injection).
import { expect, test } from "bun:test";
import { csvCell, csvRow } from "../../src/http/csv.ts";

test("every cell is quoted and inner quotes are doubled; line breaks stay inside the quotes", () => {
  expect(csvCell("plain")).toBe('"plain"');
  expect(csvCell('say "hi", then go')).toBe('"say ""hi"", then go"');
  expect(csvCell("two\nlines")).toBe('"two\nlines"');
  expect(csvCell(null)).toBe('""');
  expect(csvCell(42)).toBe('"42"');
  expect(csvRow(["a", null, 3])).toBe('"a","","3"\r\n');
});

test("a cell a spreadsheet would run as a formula starts with an apostrophe", () => {
  for (const formula of ["=SUM(A1:A9)", "+1", "-1+2", "@cmd", "\t=1", "\r=1"])
    expect(csvCell(formula)).toBe(`"'${formula}"`);
  expect(csvCell('=HYPERLINK("http://evil")')).toBe(`"'=HYPERLINK(""http://evil"")"`);
  // Not at the start: left alone.
  expect(csvCell("a=b")).toBe('"a=b"');
  expect(csvCell("https://example.com/?q=-1")).toBe('"https://example.com/?q=-1"');
});
