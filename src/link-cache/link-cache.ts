// A link cache bounded in memory (LINK_CACHE_MB) in front of one indexed SELECT, with S3-FIFO eviction
// (s3-fifo.ts) so that links read once do not push out the popular ones (docs/decisions/0022).
// Every link change is announced through the change bus (this process on SQLite; every node on PostgreSQL by
// NOTIFY), and the cache drops that address. A hit stays synchronous: /go answers without a microtask.
// Unknown addresses cost no database read: a filter of every address that may exist (address-filter.ts), built
// at start and fed by the same announcements, answers "not found" at once. Those it lets through and that are
// missing (a deleted link, a retired user slug) are remembered apart, in a small share of the budget with its
// own eviction, so that negative answers never push live links out. Earlier addresses: earlier-addresses.ts.
import type { Clock } from "../clock.ts";
import type { Logger } from "../observability/log.ts";
import { RETIRED } from "../db/go-link-sql.ts";
import { addressKey, userKey } from "../db/address-key.ts";
import type { Change } from "../db/change.ts";
import type { GoLinkRow, GoLinkSource } from "../db/ports.ts";
import { AddressFilter } from "./address-filter.ts";
import { EarlierAddresses } from "./earlier-addresses.ts";
import { fillOrder } from "./fill-order.ts";
import { newSlot, S3Fifo, type Slot } from "./s3-fifo.ts";
import { servable, type GoLink, type HeldLink } from "./held-link.ts";
import { LINK_FIXED_BYTES, linkBytes, missingBytes, previewBytes } from "./cache-bytes.ts";

/** A live link; RETIRED: the user slug is a deleted account's (410 Gone); null: not found. */
export type GoAnswer = GoLink | typeof RETIRED | null;
export { RETIRED };
/** A negative answer, kept apart: not found, or under a retired user slug. */
type Missing = Slot & { answer: typeof RETIRED | null; expires: number };

/** The share of the live links' budget that the fill at start may take (docs/decisions/0034). */
const FILL_SHARE = 1 / 2;
/** The filter of existing addresses is rebuilt when older than this many maximum ages (PostgreSQL: 10 minutes). */
const FILTER_AGE_FACTOR = 10;
/** The share of the budget that remembers negative answers, apart from the live links. */
const MISSING_SHARE = 1 / 32;

export class LinkCache {
  private readonly live: S3Fifo<HeldLink>;
  private readonly missing: S3Fifo<Missing>;
  /** null while it is being built (at start, after a reset): every lookup that misses then reads the database. */
  private filter: AddressFilter | null = null;
  /** Earlier addresses held, by the key of the link's address they lead to: a change to it drops them too. */
  private readonly aliases = new EarlierAddresses();
  /** Keys announced while the filter is being built, added once it is. */
  private announcedDuringBuild: string[] = [];
  private building = false;
  private filterBuiltAt = 0;
  /** Bumped by every invalidation, so that a lookup that raced one does not store what it read before it. */
  private generation = 0;
  /** Bumped by every reset, so that a filter built before it is thrown away. */
  private resets = 0;
  /** Lookups answered from memory, and those that had to read the database (read by the metrics). */
  hits = 0;
  misses = 0;
  /** Database reads that found nothing at the address (the filter's false positives, deleted links). */
  unknownReads = 0;
  /** Addresses the filter answered as unknown without a read (counted in `hits` too). */
  filtered = 0;
  /** True while the fill at start goes on (read by the metrics: a benchmark waits for it). */
  filling = false;

  /**
   * @param budgetBytes the memory the cache may hold, live links and negative answers together (not the filter,
   * which grows with the number of links: see filterBytes).
   * @param maxAgeMs how long an entry is trusted without a change announcement: a safety net should a
   * notification ever be lost (Infinity where every change is seen, one process on SQLite).
   */
  constructor(
    private readonly source: GoLinkSource,
    readonly budgetBytes: number,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly maxAgeMs = Number.POSITIVE_INFINITY,
  ) {
    const missingBudget = Math.floor(budgetBytes * MISSING_SHARE);
    this.missing = new S3Fifo(missingBudget);
    this.live = new S3Fifo(budgetBytes - missingBudget);
  }

  private get fillBudget(): number {
    return this.live.budget * FILL_SHARE;
  }

  private expiry(): number {
    return this.maxAgeMs === Number.POSITIVE_INFINITY ? this.maxAgeMs : this.clock.now() + this.maxAgeMs;
  }

  private fresh(expires: number): boolean {
    return expires === Number.POSITIVE_INFINITY || expires >= this.clock.now();
  }

  /** Holds a live link (its crawler pages are charged to it as they are kept: keepPreview). */
  private hold(key: string, row: GoLinkRow | typeof RETIRED | null, warming = false): GoAnswer {
    const link = servable(key, row, this.expiry());
    if (link && link !== RETIRED && row !== RETIRED && row !== null) this.live.set(link, linkBytes(key, row), warming);
    return link;
  }

  /** Keeps a crawler page rendered for `link` under `key`, charged to the link while the cache holds it. */
  keepPreview(link: GoLink, key: string, body: Uint8Array<ArrayBuffer>): void {
    const bytes = previewBytes(key, body, link.previewBodies === null);
    (link.previewBodies ??= new Map()).set(key, body);
    // Every link the cache hands out is held under its own key (an earlier address's, or the link's).
    const held = this.live.peek((link as HeldLink).key);
    if (held === link) this.live.grow(held, bytes);
  }

  /**
   * At start: builds the filter of existing addresses and fills the cache, the most viewed links first (the
   * newest after those, for links never viewed), a first page now and the rest in the background, until a share
   * of the budget is full: the rest is left for what traffic asks for, so that the fill of a large database ends
   * early (docs/decisions/0034). A miss is a database read, and under traffic the writer's commits keep
   * invalidating SQLite's page cache, so misses are far dearer than alone. `onWarm`: called with the links held
   * once a background fill is done (never when the first page was all: the returned count says that).
   */
  async warm(onWarm?: (held: number) => void): Promise<number> {
    this.filling = true;
    let pages: AsyncGenerator<GoLinkRow[]>;
    try {
      await this.buildFilter();
      pages = fillOrder(this.source, Math.floor(this.fillBudget / LINK_FIXED_BYTES));
      if (!(await this.fillNext(pages)).more) {
        this.filling = false;
        return this.live.size;
      }
    } catch (error) {
      this.filling = false;
      throw error;
    }
    void (async () => {
      let held = 0;
      for (let page = await this.fillNext(pages); (held += page.held), page.more; page = await this.fillNext(pages))
        await Bun.sleep(0); // requests go first between pages
      if (held > 0) onWarm?.(this.live.size);
    })()
      .catch((error) =>
        this.log.error("the link cache was not filled at start (links are read as they are asked for)", error),
      )
      .finally(() => (this.filling = false));
    return this.live.size;
  }

  /** Holds the next page of links while they fit in the fill's share: how many it held, and whether to go on. */
  private async fillNext(pages: AsyncGenerator<GoLinkRow[]>): Promise<{ held: number; more: boolean }> {
    const generation = this.generation;
    const page = await pages.next();
    let held = 0;
    if (page.done) return { held, more: false };
    // A change announced while the rows were read: they may be older than it; misses will read those afresh.
    if (generation !== this.generation) return { held, more: true };
    for (const row of page.value) {
      const key = addressKey(row.userSlug, row.linkSlug);
      if (this.live.has(key)) continue; // read by a request meanwhile (or among the most viewed): as fresh
      if (this.live.bytes + linkBytes(key, row) > this.fillBudget) return { held, more: false };
      this.hold(key, row, true);
      held++;
    }
    return { held, more: true };
  }

  /**
   * Reads every address that may exist; announcements that come meanwhile are added after. `keepServing`: the
   * current filter answers until the new one is ready (a periodic refresh); otherwise misses read meanwhile.
   */
  private async buildFilter(keepServing = false): Promise<void> {
    if (this.building) return;
    const resets = this.resets;
    if (!keepServing) this.filter = null;
    this.building = true;
    this.announcedDuringBuild = [];
    try {
      const filter = new AddressFilter();
      await this.source.goAddresses((key) => filter.add(key));
      if (resets !== this.resets) return;
      for (const key of this.announcedDuringBuild) filter.add(key);
      this.filter = filter;
      this.filterBuiltAt = this.clock.now();
    } finally {
      this.building = false;
      this.announcedDuringBuild = [];
      // A reset during the build: its own build was skipped, so start it now.
      if (resets !== this.resets) this.rebuild();
    }
  }

  private rebuild(keepServing = false): void {
    this.buildFilter(keepServing).catch((error) =>
      this.log.error("the link cache's address filter was not rebuilt (unknown addresses are read meanwhile)", error),
    );
  }

  /** The cached answer (null: known not to exist), or undefined when it must be loaded. */
  peek(userSlug: string, linkSlug: string): GoAnswer | undefined {
    const key = addressKey(userSlug, linkSlug);
    const link = this.live.get(key);
    if (link !== undefined && this.fresh(link.expires)) {
      this.hits++;
      return link;
    }
    const missing = this.missing.get(key);
    if (missing !== undefined && this.fresh(missing.expires)) {
      this.hits++;
      return missing.answer;
    }
    // The user slug's key is in the filter once the slug is retired: its addresses are then read (410).
    if (this.filter !== null && !this.filter.mayHave(key) && !this.filter.mayHave(userKey(userSlug))) {
      // Where an announcement could be lost (maxAgeMs), the filter is read again now and then, as entries are.
      if (
        this.maxAgeMs !== Number.POSITIVE_INFINITY &&
        this.clock.now() - this.filterBuiltAt > this.maxAgeMs * FILTER_AGE_FACTOR
      ) {
        this.filterBuiltAt = this.clock.now();
        this.rebuild(true);
      }
      this.hits++;
      this.filtered++;
      return null;
    }
    this.misses++;
    return undefined;
  }

  /**
   * Reads the link from the database and remembers it, a live one or a missing one, each within its own budget.
   * While the database cannot be asked, an entry past its maximum age is served still (stale beats down).
   */
  async load(userSlug: string, linkSlug: string): Promise<GoAnswer> {
    const generation = this.generation;
    const key = addressKey(userSlug, linkSlug);
    let row: Awaited<ReturnType<GoLinkSource["findGoLink"]>>;
    try {
      row = await this.source.findGoLink(userSlug, linkSlug);
    } catch (error) {
      // A link not found before may exist by now: only a live link or a retired slug is served stale.
      const stale = this.live.get(key) ?? this.missing.get(key)?.answer;
      if (!stale) throw error;
      return stale;
    }
    if (row === null) this.unknownReads++;
    if (generation !== this.generation) return servable(key, row, 0);
    this.live.delete(key);
    this.missing.delete(key);
    const link = this.hold(key, row);
    if (link === null || link === RETIRED)
      this.missing.set({ ...newSlot(key), answer: link, expires: this.expiry() }, missingBytes(key));
    else if (link.linkSlug !== linkSlug || link.userSlug !== userSlug)
      this.aliases.add(addressKey(link.userSlug, link.linkSlug), key);
    return link;
  }

  async get(userSlug: string, linkSlug: string): Promise<GoAnswer> {
    const cached = this.peek(userSlug, linkSlug);
    return cached !== undefined ? cached : this.load(userSlug, linkSlug);
  }

  /**
   * Drops one short address, or every address under a user slug, and lets the filter know that it may exist now
   * (a new link, a retired slug). A domain change holds no address.
   */
  invalidate(change: Change): void {
    if (change.kind === "domains") return;
    const key = change.kind === "link" ? addressKey(change.userSlug, change.linkSlug) : userKey(change.userSlug);
    this.generation++;
    this.filter?.add(key);
    if (this.building) this.announcedDuringBuild.push(key);
    if (change.kind === "link") {
      this.live.delete(key);
      this.missing.delete(key);
      for (const alias of this.aliases.take(key)) {
        this.live.delete(alias);
        this.missing.delete(alias);
      }
      return;
    }
    // Once per account deletion: a pass over both caches.
    const under = (cached: string) => cached.startsWith(key);
    this.live.deleteWhere(under);
    this.missing.deleteWhere(under);
    this.aliases.forgetUnder(key);
  }

  /** Drops everything and builds the filter again: changes may have been missed. */
  clear(): void {
    this.generation++;
    this.resets++;
    this.live.clear();
    this.missing.clear();
    this.aliases.clear();
    this.filter = null;
    this.rebuild();
  }

  /** Live links held. */
  get size(): number {
    return this.live.size;
  }

  /** Addresses remembered as missing. */
  get missingSize(): number {
    return this.missing.size;
  }

  /** Memory charged to the cache (live links, their crawler pages, negative answers): never above budgetBytes. */
  get bytes(): number {
    return this.live.bytes + this.missing.bytes;
  }

  /** Live links pushed out to stay within the budget. */
  get evictions(): number {
    return this.live.evictions;
  }

  /** The filter of existing addresses' table. */
  get filterBytes(): number {
    return this.filter?.bytes ?? 0;
  }
}
