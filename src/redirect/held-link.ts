// The shape of a link in the /go cache (link-cache.ts), and how a stored row becomes one.
import { RETIRED } from "../db/go-link-sql.ts";
import type { GoLinkRow } from "../db/ports.ts";
import { safeHttpUrl } from "../links/url.ts";
import { newSlot, type Slot } from "./s3-fifo.ts";

export type GoLink = GoLinkRow & {
  /** Crawler pages, rendered and encoded on first use, by key (LinkCache.keepPreview); null until one is. */
  previewBodies: Map<string, Uint8Array<ArrayBuffer>> | null;
};

/**
 * A link as the cache holds it: its own S3-FIFO node, so that a hit reaches it in one hop from the map
 * (docs/decisions/0039), trusted until `expires` (Infinity where every change is announced).
 */
export type HeldLink = GoLink & Slot & { expires: number };

/** The link at `key` from its row; a target that is not http(s) (an older version's, or by hand) is never served. */
export function servable(key: string, row: GoLinkRow | typeof RETIRED | null, expires: number): HeldLink | typeof RETIRED | null {
  if (row === null || row === RETIRED) return row;
  const targetUrl = safeHttpUrl(row.targetUrl);
  return targetUrl ? { ...row, targetUrl, previewBodies: null, expires, ...newSlot(key) } : null;
}
