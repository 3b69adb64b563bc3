// What a feed parser returns: the entries it read, and a note for each line it skipped (logged by the refresh).
import type { ThreatEntry } from "../matching.ts";

export type ParsedFeed = { entries: ThreatEntry[]; skipped: string[] };

/** Feeds written on Windows start with a byte-order mark. */
export const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** One entry per non-blank, non-comment line, read by `read` (null: skipped, with the line in the note). */
export function parseLines(text: string, read: (line: string) => ThreatEntry | null): ParsedFeed {
  const parsed: ParsedFeed = { entries: [], skipped: [] };
  withoutBom(text)
    .split(/\r?\n/)
    .forEach((raw, index) => {
      const line = raw.trim();
      if (!line || line.startsWith("#")) return;
      const entry = read(line);
      if (entry) parsed.entries.push(entry);
      else parsed.skipped.push(`line ${index + 1}: ${JSON.stringify(line.slice(0, 200))}`);
    });
  return parsed;
}
