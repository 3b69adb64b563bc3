// The filter of every address that may exist (address-filter.ts), kept current for the link cache (link-cache.ts):
// read from the database at start and after a reset, fed by every change announced meanwhile, and, where an
// announcement could be lost, read again now and then. While it is being built after a reset, nothing is ruled
// out: every lookup that misses reads the database.
import type { Clock } from "../clock.ts";
import type { Logger } from "../observability/log.ts";
import { userKey } from "../db/address-key.ts";
import type { GoLinkSource } from "../db/ports.ts";
import { AddressFilter } from "./address-filter.ts";

/** The filter is rebuilt when older than this many maximum ages (PostgreSQL: 10 minutes). */
const FILTER_AGE_FACTOR = 10;

export class ExistingAddresses {
  /** null while it is being built (at start, after a reset). */
  private filter: AddressFilter | null = null;
  /** Keys announced while the filter is being built, added once it is. */
  private announcedDuringBuild: string[] = [];
  private building = false;
  private builtAt = 0;
  /** Bumped by every reset, so that a filter built before it is thrown away. */
  private resets = 0;

  /** `maxAgeMs`: how long an entry is trusted without an announcement (Infinity where every change is seen). */
  constructor(
    private readonly source: GoLinkSource,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly maxAgeMs: number,
  ) {}

  /**
   * Reads every address that may exist; announcements that come meanwhile are added after. `keepServing`: the
   * current filter answers until the new one is ready (a periodic refresh); otherwise misses read meanwhile.
   */
  async build(keepServing = false): Promise<void> {
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
      this.builtAt = this.clock.now();
    } finally {
      this.building = false;
      this.announcedDuringBuild = [];
      // A reset during the build: its own build was skipped, so start it now.
      if (resets !== this.resets) this.rebuild();
    }
  }

  private rebuild(keepServing = false): void {
    this.build(keepServing).catch((error) =>
      this.log.error("the link cache's address filter was not rebuilt (unknown addresses are read meanwhile)", error),
    );
  }

  /** True: no link exists at `key`, an address under `userSlug`, so it needs no database read. */
  ruleOut(key: string, userSlug: string): boolean {
    // The user slug's key is in the filter once the slug is retired: its addresses are then read (410).
    if (this.filter === null || this.filter.mayHave(key) || this.filter.mayHave(userKey(userSlug))) return false;
    // Where an announcement could be lost (maxAgeMs), the filter is read again now and then, as entries are.
    if (
      this.maxAgeMs !== Number.POSITIVE_INFINITY &&
      this.clock.now() - this.builtAt > this.maxAgeMs * FILTER_AGE_FACTOR
    ) {
      this.builtAt = this.clock.now();
      this.rebuild(true);
    }
    return true;
  }

  /** A change announced at `key` (a link's address, or a user slug's): an address that may exist now. */
  announce(key: string): void {
    this.filter?.add(key);
    if (this.building) this.announcedDuringBuild.push(key);
  }

  /** Forgets the filter and builds it again: changes may have been missed. */
  reset(): void {
    this.resets++;
    this.filter = null;
    this.rebuild();
  }

  /** Memory held by the filter's table. */
  get bytes(): number {
    return this.filter?.bytes ?? 0;
  }
}
