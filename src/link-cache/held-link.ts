// The shape of a link in the /go cache (link-cache.ts), and how a stored row becomes one.
import { boundedMemo } from "../bounded-memo.ts";
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

/** A user slug as first held, so that a user's links share one string. */
const sharedUserSlug = boundedMemo(65_536, (slug) => slug);

/**
 * The link at `key` from its row; a target that is not http(s) (an older version's, or by hand) is never served.
 * Built as one literal, the user slug and status shared: at a million links a spread copy (its properties in a
 * second allocation) and a string per link for each cost 75 MB of resident memory (npm run bench:growth).
 */
export function servable(
  key: string,
  row: GoLinkRow | typeof RETIRED | null,
  expires: number,
): HeldLink | typeof RETIRED | null {
  if (row === null || row === RETIRED) return row;
  const targetUrl = safeHttpUrl(row.targetUrl);
  if (!targetUrl) return null;
  return {
    id: row.id,
    userId: row.userId,
    userSlug: sharedUserSlug(row.userSlug),
    linkSlug: row.linkSlug,
    targetUrl,
    title: row.title,
    description: row.description,
    imageUrl: row.imageUrl,
    imageWidth: row.imageWidth,
    imageHeight: row.imageHeight,
    version: row.version,
    imageSquareUrl: row.imageSquareUrl,
    imageXUrl: row.imageXUrl,
    xTitle: row.xTitle,
    whatsappDescription: row.whatsappDescription,
    goRules: row.goRules,
    clicks: row.clicks,
    domainId: row.domainId,
    status: row.status === "active" ? "active" : row.status,
    previewBodies: null,
    expires,
    ...newSlot(key),
  };
}
