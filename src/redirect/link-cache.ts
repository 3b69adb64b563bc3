// A bounded in-memory cache of live links by short address, in front of one indexed SELECT.
// The links service invalidates entries on create (a cached "not found"), edit and delete.
import type { Database } from "bun:sqlite";
import { safeHttpUrl } from "../links/url.ts";

export type GoLink = {
  id: number;
  userId: number;
  userSlug: string;
  linkSlug: string;
  targetUrl: string;
  title: string;
  description: string;
  imageUrl: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  /** The crawler page, rendered (and UTF-8 encoded) on first use. */
  previewBody?: Uint8Array<ArrayBuffer>;
  /** The person's 302 headers, built on first use. */
  redirectHeaders?: Headers;
};

type LinkRow = Omit<GoLink, "previewBody" | "redirectHeaders">;

const COLUMNS = `l.id AS id, l.user_id AS userId, u.user_slug AS userSlug, l.link_slug AS linkSlug,
  l.target_url AS targetUrl, l.title AS title, l.description AS description,
  l.image_url AS imageUrl, l.image_width AS imageWidth, l.image_height AS imageHeight`;

/** A target that is not http(s) (written by an older version, or by hand) is never served. */
function servable(row: LinkRow | null): GoLink | null {
  const targetUrl = row ? safeHttpUrl(row.targetUrl) : null;
  return row && targetUrl ? { ...row, targetUrl } : null;
}

const keyOf = (userSlug: string, linkSlug: string) => `${userSlug}/${linkSlug}`;

export class LinkCache {
  private readonly entries = new Map<string, GoLink | null>();
  private readonly lookup;
  private readonly newest;

  constructor(
    sqlite: Database,
    private readonly limit: number,
  ) {
    this.lookup = sqlite.query<LinkRow, [string, string]>(
      `SELECT ${COLUMNS} FROM users u JOIN links l ON l.user_id = u.id AND l.link_slug = ?2 AND l.deleted = 0 WHERE u.user_slug = ?1`,
    );
    this.newest = sqlite.query<LinkRow, [number]>(
      `SELECT ${COLUMNS} FROM links l JOIN users u ON u.id = l.user_id WHERE l.deleted = 0 ORDER BY l.id DESC LIMIT ?1`,
    );
  }

  /**
   * Fills the cache with the newest live links at start. A miss is a SQLite read, and the writer Worker's
   * commits keep invalidating this connection's page cache, so misses are far dearer under traffic than alone.
   */
  warm(): number {
    for (const row of this.newest.all(this.limit)) {
      const link = servable(row);
      if (link) this.entries.set(keyOf(link.userSlug, link.linkSlug), link);
    }
    return this.entries.size;
  }

  get(userSlug: string, linkSlug: string): GoLink | null {
    const key = keyOf(userSlug, linkSlug);
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    const link = servable(this.lookup.get(userSlug, linkSlug));
    if (this.entries.size >= this.limit) {
      // Evict the oldest entry: Map keeps insertion order.
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, link);
    return link;
  }

  invalidate(userSlug: string, linkSlug: string): void {
    this.entries.delete(keyOf(userSlug, linkSlug));
  }

  get size(): number {
    return this.entries.size;
  }
}
