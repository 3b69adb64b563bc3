// A bounded in-memory cache of live links by short address, in front of one indexed SELECT.
// Every link change is announced through the change bus (this process on SQLite; every node on PostgreSQL by
// NOTIFY), and the cache drops that address. A hit stays synchronous: /go answers without a microtask.
// Addresses found missing are remembered apart, in a small set with its own eviction, so that a stream of
// unknown addresses (a scan, random guesses) never pushes live links out and turns their hits into reads.
import { systemClock, type Clock } from "../clock.ts";
import { RETIRED } from "../db/go-link-sql.ts";
import { linkChangeKey } from "../db/link-change-key.ts";
import type { GoLinkRow, GoLinkSource } from "../db/ports.ts";
import { safeHttpUrl } from "../links/url.ts";

export type GoLink = GoLinkRow & {
  /** The crawler pages, rendered (and UTF-8 encoded) on first use, by key (the version of the address). */
  previewBodies: Map<string, Uint8Array<ArrayBuffer>>;
  /** The person's 302 headers, built on first use. */
  redirectHeaders?: Headers;
};

type Entry = { link: GoLink; expires: number };
/** A live link; RETIRED: the user slug is a deleted account's (410 Gone); null: not found. */
export type GoAnswer = GoLink | typeof RETIRED | null;
export { RETIRED };
/** A negative answer, kept in the missing set: not found, or under a retired user slug. */
type Missing = { answer: typeof RETIRED | null; expires: number };

/** A target that is not http(s) (written by an older version, or by hand) is never served. */
function servable(row: GoLinkRow | typeof RETIRED | null): GoAnswer {
  if (row === RETIRED) return row;
  const targetUrl = row ? safeHttpUrl(row.targetUrl) : null;
  return row && targetUrl ? { ...row, targetUrl, previewBodies: new Map() } : null;
}

/** Sets `key` last, first evicting the oldest entry when the map is full (Map keeps insertion order). */
function setBounded<V>(map: Map<string, V>, limit: number, key: string, value: V): void {
  if (map.size >= limit) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** How many missing addresses are remembered, against the live-link bound: enough for a few mistyped or removed links. */
const negativeLimitFor = (limit: number) => Math.max(100, Math.min(10_000, Math.floor(limit / 10)));

export class LinkCache {
  private readonly entries = new Map<string, Entry>();
  /** Addresses known not to exist (or retired), with their expiry; oldest first (Map keeps insertion order). */
  private readonly missing = new Map<string, Missing>();
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
    private readonly source: GoLinkSource,
    private readonly limit: number,
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
    private readonly clock: Clock = systemClock,
    private readonly missingLimit = negativeLimitFor(limit),
  ) {}

  private expiry(): number {
    return this.maxAgeMs === Number.POSITIVE_INFINITY ? this.maxAgeMs : this.clock.now() + this.maxAgeMs;
  }

  private fresh(expires: number): boolean {
    return expires === Number.POSITIVE_INFINITY || expires >= this.clock.now();
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
      if (link && link !== RETIRED) this.entries.set(linkChangeKey(link.userSlug, link.linkSlug), { link, expires });
    }
    return this.entries.size;
  }

  /** The cached answer (null: known not to exist), or undefined when it must be loaded. */
  peek(userSlug: string, linkSlug: string): GoAnswer | undefined {
    const key = linkChangeKey(userSlug, linkSlug);
    const entry = this.entries.get(key);
    if (entry !== undefined && this.fresh(entry.expires)) {
      this.hits++;
      return entry.link;
    }
    const missing = this.missing.get(key);
    if (missing !== undefined && this.fresh(missing.expires)) {
      this.hits++;
      return missing.answer;
    }
    this.misses++;
    return undefined;
  }

  /**
   * Reads the link from the database and remembers it, a live one or a missing one, each within its own bound.
   * While the database cannot be asked, an entry past its maximum age is served still (stale beats down).
   */
  async load(userSlug: string, linkSlug: string): Promise<GoAnswer> {
    const generation = this.generation;
    const key = linkChangeKey(userSlug, linkSlug);
    let row: Awaited<ReturnType<GoLinkSource["findGoLink"]>>;
    try {
      row = await this.source.findGoLink(userSlug, linkSlug);
    } catch (error) {
      // A link not found before may exist by now: only a live link or a retired slug is served stale.
      const stale = this.entries.get(key)?.link ?? this.missing.get(key)?.answer;
      if (!stale) throw error;
      return stale;
    }
    const link = servable(row);
    if (generation !== this.generation) return link;
    this.entries.delete(key);
    this.missing.delete(key);
    if (link && link !== RETIRED) setBounded(this.entries, this.limit, key, { link, expires: this.expiry() });
    else setBounded(this.missing, this.missingLimit, key, { answer: link, expires: this.expiry() });
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
      this.missing.delete(key);
      return;
    }
    // Once per account deletion: a pass over both bounded maps.
    for (const map of [this.entries, this.missing]) for (const cached of map.keys()) if (cached.startsWith(key)) map.delete(cached);
  }

  /** Drops everything: changes may have been missed. */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.missing.clear();
  }

  /** Live links held. */
  get size(): number {
    return this.entries.size;
  }

  /** Addresses remembered as missing. */
  get missingSize(): number {
    return this.missing.size;
  }
}
