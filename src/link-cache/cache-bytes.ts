// What the link cache (link-cache.ts) charges to its memory budget for each thing it holds: estimated from what is
// held, so that a field added to the cached row is counted without a change here.
import type { GoLinkRow } from "../db/ports.ts";

/** A small object or map entry's fixed cost (header and slots), in bytes: measured on Bun, rounded up. */
const ENTRY_BYTES = 64;
/** What every cached link costs at least: its objects (its strings come on top). */
export const LINK_FIXED_BYTES = 4 * ENTRY_BYTES;
/** A string's cost: its header and, to be safe, two bytes a character. */
const stringBytes = (text: string) => 24 + text.length * 2;

/**
 * What a cached link costs, estimated from the row itself: every field it has (a new column counts without a
 * change here), its key and the entry. Crawler pages are charged as they are rendered.
 */
export function linkBytes(key: string, row: GoLinkRow): number {
  let bytes = LINK_FIXED_BYTES + stringBytes(key);
  for (const value of Object.values(row)) bytes += 8 + (typeof value === "string" ? stringBytes(value) : 0);
  return bytes;
}

export const missingBytes = (key: string) => 2 * ENTRY_BYTES + stringBytes(key);

/** What a crawler page kept on a cached link costs: its bytes, its key, its map entry (and the map, for the first). */
export const previewBytes = (key: string, body: Uint8Array, first: boolean) =>
  body.byteLength + stringBytes(key) + ENTRY_BYTES * (first ? 3 : 1);
