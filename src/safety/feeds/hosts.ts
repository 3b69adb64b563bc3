// A host list: one host per line, or hosts-file lines (`0.0.0.0 evil.example`, the last word is the host). Each
// blocks the host and its subdomains; a line naming a whole public suffix (co.uk, github.io) is skipped.
import { hostEntry } from "../matching.ts";
import { parseLines, type ParsedFeed } from "./parsed.ts";

export const parseHostList = (text: string): ParsedFeed =>
  parseLines(text, (line) =>
    hostEntry(
      line
        .replace(/\s+#.*$/, "")
        .split(/\s+/)
        .at(-1)!,
    ),
  );
