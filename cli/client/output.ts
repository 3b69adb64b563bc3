// What the client commands print: a line, JSON, an aligned table, counts and platform names as a person writes
// them, and the example under each command's help.
import { platformName } from "../../src/previews/platforms.ts";

export const out = (text: string): void => void process.stdout.write(`${text}\n`);
export const json = (value: unknown) => out(JSON.stringify(value, null, 2));

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

export const example = (text: string) => `\nExample:\n  ${text}`;

/** "1 QR scan", "2 QR scans". */
export const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** A platform as its own name writes it ("LinkedIn", "WhatsApp"); one without facts capitalised ("Other"). */
export function platformLabel(id: string): string {
  const name = platformName(id);
  return name === id ? id.charAt(0).toUpperCase() + id.slice(1) : name;
}
