// What a batch the database refused becomes before it is written to the spool (views/view-spool.ts): only what
// the stored rows need. Each address is replaced by its truncated form (what views.ip stores) and each person's
// view carries its visitor hash, computed now with the day's salt, which never leaves the writer's memory
// (views/daily-visitors.ts): the spool file holds no full client address (docs/decisions/0020).
import { truncateIpMemo } from "../http/client-ip.ts";
import { dayNumberOf, type DailyVisitors } from "./daily-visitors.ts";
import type { ViewBatch } from "./view-batch.ts";

/** Turns a batch into its sealed form; a sealed one is returned as it is. */
export type SealBatch = (batch: ViewBatch) => ViewBatch;

export function sealBatch(b: ViewBatch, visitors: DailyVisitors): ViewBatch {
  if (b.visitor) return b;
  // Strings are rebuilt from those still referenced, so that the full addresses are not among them.
  const strings: string[] = [];
  const indexOf = new Map<string, number>();
  const intern = (text: string) => {
    let index = indexOf.get(text);
    if (index === undefined) indexOf.set(text, (index = strings.push(text) - 1));
    return index;
  };
  const size = b.size;
  const remap = (column: Int32Array, as: (text: string) => string = (text) => text) =>
    Int32Array.from(column.subarray(0, size), (index) => (index < 0 ? -1 : intern(as(b.strings[index]!))));
  const visitor = new Float64Array(size);
  // A visitor's hash once per batch: the set would not count it twice anyway.
  const hashed = new Set<number>();
  for (let i = 0; i < size; i++) {
    const hash = b.isBot[i]
      ? null
      : visitors.hash(dayNumberOf(b.at[i]!), b.linkId[i]!, b.strings[b.address[i]!]!, b.strings[b.userAgent[i]!]!);
    visitor[i] = hash === null || hashed.has(hash) ? -1 : hash;
    if (hash !== null) hashed.add(hash);
  }
  return {
    size,
    linkId: b.linkId.slice(0, size),
    userId: b.userId.slice(0, size),
    at: b.at.slice(0, size),
    isBot: b.isBot.slice(0, size),
    scan: b.scan.slice(0, size),
    platform: remap(b.platform),
    address: remap(b.address, (address) => truncateIpMemo(address)),
    userAgent: remap(b.userAgent),
    attribution: remap(b.attribution),
    rendition: remap(b.rendition),
    version: b.version.slice(0, size),
    status: b.status.slice(0, size),
    bytes: b.bytes.slice(0, size),
    ms: b.ms.slice(0, size),
    verification: b.verification.slice(0, size),
    strings,
    visitor,
  };
}
