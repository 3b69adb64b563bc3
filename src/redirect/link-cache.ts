// A bounded in-memory cache of live links by short address, in front of one indexed SELECT.
// Every link change is announced through the engine (this process on SQLite; every node on PostgreSQL by
// NOTIFY), and the cache drops that address. A hit stays synchronous: /go answers without a microtask.
import { RETIRED, type Engine, type GoLinkRow } from "../db/engine.ts";
import { safeHttpUrl } from "../links/url.ts";

export type GoLink = GoLinkRow & {
  /** The crawler pages, rendered (and UTF-8 encoded) on first use, by key (the version of the address). */
  previewBodies: Map<string, Uint8Array<ArrayBuffer>>;
  /** The person's 302 headers, built on first use. */
  redirectHeaders?: Headers;
};

/** A live link; RETIRED: the user slug is a deleted account's (410 Gone); null: not found. */
export type GoAnswer = GoLink | typeof RETIRED | null;
export { RETIRED };

type Entry = { link: GoAnswer; expires: number };

/** A target that is not http(s) (written by an older version, or by hand) is never served. */
function servable(row: GoLinkRow | typeof RETIRED | null): GoAnswer {
  if (row === RETIRED) return row;
  const targetUrl = row ? safeHttpUrl(row.targetUrl) : null;
  return row && targetUrl ? { ...row, targetUrl, previewBodies: new Map() } : null;
}

export const shortAddressKey = (userSlug: string, linkSlug: string) => `${userSlug}/${linkSlug}`;

export class LinkCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation, so that a lookup that raced one does not store what it read before it. */
  private generation = 0;
  /** Lookups answered from memory, and those that had to read the database (read by the metrics). */
  hits = 0;
  misses = 0;

  /**
   * @param maxAgeMs how long an entry is trusted without a change announcement: a safety net should a
   * notification ever be lost (Infinity where every change is seen, one process on SQLite).
   */
  constructor(
    private readonly source: Pick<Engine, "findGoLink" | "newestGoLinks">,
    private readonly limit: number,
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
  ) {}

  private expiry(): number {
    return this.maxAgeMs === Number.POSITIVE_INFINITY ? this.maxAgeMs : Date.now() + this.maxAgeMs;
  }

  /**
   * Fills the cache with the newest live links at start. A miss is a database read, and under traffic the
   * writer's commits keep invalidating SQLite's page cache, so misses are far dearer than alone.
   */
  async warm(): Promise<number> {
    const expires = this.expiry();
    const generation = this.generation;
    const rows = await this.source.newestGoLinks(this.limit);
    // A change announced while the rows were read: they may be older than it; misses will read afresh.
    if (generation !== this.generation) return this.entries.size;
    for (const row of rows) {
      const link = servable(row);
      if (link && link !== RETIRED) this.entries.set(shortAddressKey(link.userSlug, link.linkSlug), { link, expires });
    }
    return this.entries.size;
  }

  /** The cached answer (null: known not to exist), or undefined when it must be loaded. */
  peek(userSlug: string, linkSlug: string): GoAnswer | undefined {
    const entry = this.entries.get(shortAddressKey(userSlug, linkSlug));
    if (entry === undefined || (entry.expires !== Number.POSITIVE_INFINITY && entry.expires < Date.now())) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.link;
  }

  /** Reads the link from the database and remembers it (missing links too), within the bound. */
  async load(userSlug: string, linkSlug: string): Promise<GoAnswer> {
    const generation = this.generation;
    const link = servable(await this.source.findGoLink(userSlug, linkSlug));
    if (generation !== this.generation) return link;
    const key = shortAddressKey(userSlug, linkSlug);
    this.entries.delete(key);
    // Evict the oldest entry: Map keeps insertion order.
    if (this.entries.size >= this.limit) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { link, expires: this.expiry() });
    return link;
  }

  async get(userSlug: string, linkSlug: string): Promise<GoAnswer> {
    const cached = this.peek(userSlug, linkSlug);
    return cached !== undefined ? cached : this.load(userSlug, linkSlug);
  }

  /** Drops one short address ("userSlug/linkSlug"), or every address under a user slug ("userSlug/"). */
  invalidate(key: string): void {
    this.generation++;
    if (!key.endsWith("/")) {
      this.entries.delete(key);
      return;
    }
    // Once per account deletion: a pass over at most `limit` keys.
    for (const cached of this.entries.keys()) if (cached.startsWith(key)) this.entries.delete(cached);
  }

  /** Drops everything: changes may have been missed. */
  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
