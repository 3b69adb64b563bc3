// Text an operator reads at a terminal or in a log: anything anonymous people wrote (a report's details, an address,
// a header) has its control characters shown as escapes, so that it cannot move the cursor, recolour or clear the
// screen, forge a tab-separated column or a new row, or reorder what follows (bidirectional overrides).
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const NAMED: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };

const escape = (char: string) =>
  NAMED[char] ??
  (char.charCodeAt(0) <= 0xff
    ? `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`
    : `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** `text` with every control character written as its escape (`\t`, `\x1b`, `\u202e`). */
export const printable = (text: string): string => text.replace(CONTROL, escape);
