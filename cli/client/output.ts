// What the client commands print: a line, JSON, an aligned table, and the example under each command's help.
export const out = (text: string): void => void process.stdout.write(`${text}\n`);
export const json = (value: unknown) => out(JSON.stringify(value, null, 2));

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n");
}

export const example = (text: string) => `\nExample:\n  ${text}`;
