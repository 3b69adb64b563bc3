// A link cache bounded in memory (LINK_CACHE_MB) in front of one indexed SELECT: what it holds, live links and
// negative answers each in their share of the budget, is held-answers.ts (docs/decisions/0022).
// Every link change is announced through the change bus (this process on SQLite; every node on PostgreSQL by
// NOTIFY), and the cache drops that address. A hit stays synchronous: /go answers without a microtask.
// Unknown addresses cost no database read: a filter of every address that may exist (existing-addresses.ts), built
// at start and fed by the same announcements, answers "not found" at once. Those it lets through and that are
// missing (a deleted link, a retired user slug) are remembered as such. Earlier addresses: earlier-addresses.ts.
import type { Clock } from "../clock.ts";
import type { Logger } from "../observability/log.ts";
import { RETIRED } from "../db/go-link-sql.ts";
import { addressKey, userKey } from "../db/address-key.ts";
import type { Change } from "../db/change.ts";
import type { GoLinkRow, GoLinkSource } from "../db/ports.ts";
import { ExistingAddresses } from "./existing-addresses.ts";
import { fillOrder } from "./fill-order.ts";
import { HeldAnswers, type GoAnswer } from "./held-answers.ts";
import { servable, type GoLink } from "./held-link.ts";
import { LINK_FIXED_BYTES, linkBytes } from "./cache-bytes.ts";

export type { GoAnswer };
export { RETIRED };

export class LinkCache {
  private readonly answers: HeldAnswers;
  private readonly addresses: ExistingAddresses;
  /** Bumped by every invalidation, so that a lookup that raced one does not store what it read before it. */
  private generation = 0;
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
    clock: Clock,
    private readonly log: Logger,
    maxAgeMs = Number.POSITIVE_INFINITY,
  ) {
    this.answers = new HeldAnswers(budgetBytes, clock, maxAgeMs);
    this.addresses = new ExistingAddresses(source, clock, log, maxAgeMs);
  }

  /** Keeps a crawler page rendered for `link` under `key`, charged to the link while the cache holds it. */
  keepPreview(link: GoLink, key: string, body: Uint8Array<ArrayBuffer>): void {
    this.answers.keepPreview(link, key, body);
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
      await this.addresses.build();
      pages = fillOrder(this.source, Math.floor(this.answers.fillBudget / LINK_FIXED_BYTES));
      if (!(await this.fillNext(pages)).more) {
        this.filling = false;
        return this.answers.size;
      }
    } catch (error) {
      this.filling = false;
      throw error;
    }
    void (async () => {
      let held = 0;
      for (let page = await this.fillNext(pages); (held += page.held), page.more; page = await this.fillNext(pages))
        await Bun.sleep(0); // requests go first between pages
      if (held > 0) onWarm?.(this.answers.size);
    })()
      .catch((error) =>
        this.log.error("the link cache was not filled at start (links are read as they are asked for)", error),
      )
      .finally(() => (this.filling = false));
    return this.answers.size;
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
      if (this.answers.has(key)) continue; // read by a request meanwhile (or among the most viewed): as fresh
      if (this.answers.liveBytes + linkBytes(key, row) > this.answers.fillBudget) return { held, more: false };
      this.answers.hold(key, row, true);
      held++;
    }
    return { held, more: true };
  }

  /** The cached answer (null: known not to exist), or undefined when it must be loaded. */
  peek(userSlug: string, linkSlug: string): GoAnswer | undefined {
    const key = addressKey(userSlug, linkSlug);
    const held = this.answers.find(key);
    if (held !== undefined) {
      this.hits++;
      return held;
    }
    if (this.addresses.ruleOut(key, userSlug)) {
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
      const stale = this.answers.stale(key);
      if (!stale) throw error;
      return stale;
    }
    if (row === null) this.unknownReads++;
    if (generation !== this.generation) return servable(key, row, 0);
    return this.answers.keep(key, row, userSlug, linkSlug);
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
    this.addresses.announce(key);
    if (change.kind === "link") this.answers.drop(key);
    else this.answers.dropUnder(key);
  }

  /** Drops everything and builds the filter again: changes may have been missed. */
  clear(): void {
    this.generation++;
    this.answers.clear();
    this.addresses.reset();
  }

  /** Live links held. */
  get size(): number {
    return this.answers.size;
  }

  /** Addresses remembered as missing. */
  get missingSize(): number {
    return this.answers.missingSize;
  }

  /** Memory charged to the cache (live links, their crawler pages, negative answers): never above budgetBytes. */
  get bytes(): number {
    return this.answers.bytes;
  }

  /** Live links pushed out to stay within the budget. */
  get evictions(): number {
    return this.answers.evictions;
  }

  /** The filter of existing addresses' table. */
  get filterBytes(): number {
    return this.addresses.bytes;
  }
}
