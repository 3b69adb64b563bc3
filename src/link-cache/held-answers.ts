// What the link cache (link-cache.ts) holds within its memory budget: live links, and apart from them, in a small
// share of the budget with its own eviction, the negative answers (a deleted link, a retired user slug), so that
// those never push live links out. Each is an S3-FIFO (s3-fifo.ts), so that links read once do not push out the
// popular ones (docs/decisions/0022). Every entry is trusted until its maximum age; an earlier address holds a copy
// of its link (earlier-addresses.ts), dropped with it.
import type { Clock } from "../clock.ts";
import { RETIRED } from "../db/go-link-sql.ts";
import { addressKey } from "../db/address-key.ts";
import type { GoLinkRow } from "../db/ports.ts";
import { EarlierAddresses } from "./earlier-addresses.ts";
import { newSlot, S3Fifo, type Slot } from "./s3-fifo.ts";
import { servable, type GoLink, type HeldLink } from "./held-link.ts";
import { linkBytes, missingBytes, previewBytes } from "./cache-bytes.ts";

/** A live link; RETIRED: the user slug is a deleted account's (410 Gone); null: not found. */
export type GoAnswer = GoLink | typeof RETIRED | null;
/** A negative answer, kept apart: not found, or under a retired user slug. */
type Missing = Slot & { answer: typeof RETIRED | null; expires: number };

/** The share of the live links' budget that the fill at start may take (docs/decisions/0034). */
const FILL_SHARE = 1 / 2;
/** The share of the budget that remembers negative answers, apart from the live links. */
const MISSING_SHARE = 1 / 32;

export class HeldAnswers {
  private readonly live: S3Fifo<HeldLink>;
  private readonly missing: S3Fifo<Missing>;
  /** Earlier addresses held, by the key of the link's address they lead to: a change to it drops them too. */
  private readonly aliases = new EarlierAddresses();

  /** `maxAgeMs`: how long an entry is trusted (Infinity where every change is announced). */
  constructor(
    budgetBytes: number,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
  ) {
    const missingBudget = Math.floor(budgetBytes * MISSING_SHARE);
    this.missing = new S3Fifo(missingBudget);
    this.live = new S3Fifo(budgetBytes - missingBudget);
  }

  /** What the fill at start may charge to the live links. */
  get fillBudget(): number {
    return this.live.budget * FILL_SHARE;
  }

  private expiry(): number {
    return this.maxAgeMs === Number.POSITIVE_INFINITY ? this.maxAgeMs : this.clock.now() + this.maxAgeMs;
  }

  private fresh(expires: number): boolean {
    return expires === Number.POSITIVE_INFINITY || expires >= this.clock.now();
  }

  /** The answer held at `key` while within its maximum age; undefined: none. */
  find(key: string): GoAnswer | undefined {
    const link = this.live.get(key);
    if (link !== undefined && this.fresh(link.expires)) return link;
    const missing = this.missing.get(key);
    if (missing !== undefined && this.fresh(missing.expires)) return missing.answer;
    return undefined;
  }

  /** The answer held at `key` however old (served while the database cannot be asked); undefined: none. */
  stale(key: string): GoAnswer | undefined {
    return this.live.get(key) ?? this.missing.get(key)?.answer;
  }

  /** Whether a live link is held at `key`, however old. */
  has(key: string): boolean {
    return this.live.has(key);
  }

  /** Holds a live link (its crawler pages are charged to it as they are kept: keepPreview). */
  hold(key: string, row: GoLinkRow | typeof RETIRED | null, warming = false): GoAnswer {
    const link = servable(key, row, this.expiry());
    if (link && link !== RETIRED && row !== RETIRED && row !== null) this.live.set(link, linkBytes(key, row), warming);
    return link;
  }

  /**
   * Holds what was read at `userSlug`/`linkSlug` (`key`) instead of what was held there, a live link or a missing
   * one, each within its own budget; a link found under another address is held as that address's too.
   */
  keep(key: string, row: GoLinkRow | typeof RETIRED | null, userSlug: string, linkSlug: string): GoAnswer {
    this.live.delete(key);
    this.missing.delete(key);
    const link = this.hold(key, row);
    if (link === null || link === RETIRED)
      this.missing.set({ ...newSlot(key), answer: link, expires: this.expiry() }, missingBytes(key));
    else if (link.linkSlug !== linkSlug || link.userSlug !== userSlug)
      this.aliases.add(addressKey(link.userSlug, link.linkSlug), key);
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

  /** Drops what is held at `key`, and at the earlier addresses of the link there. */
  drop(key: string): void {
    this.live.delete(key);
    this.missing.delete(key);
    for (const alias of this.aliases.take(key)) {
      this.live.delete(alias);
      this.missing.delete(alias);
    }
  }

  /** Drops every address under a user slug (`prefix`, its key): a pass over both, once per account deletion. */
  dropUnder(prefix: string): void {
    const under = (cached: string) => cached.startsWith(prefix);
    this.live.deleteWhere(under);
    this.missing.deleteWhere(under);
    this.aliases.forgetUnder(prefix);
  }

  clear(): void {
    this.live.clear();
    this.missing.clear();
    this.aliases.clear();
  }

  /** Live links held. */
  get size(): number {
    return this.live.size;
  }

  /** Memory charged to the live links and their crawler pages. */
  get liveBytes(): number {
    return this.live.bytes;
  }

  /** Addresses remembered as missing. */
  get missingSize(): number {
    return this.missing.size;
  }

  /** Memory charged (live links, their crawler pages, negative answers): never above the budget. */
  get bytes(): number {
    return this.live.bytes + this.missing.bytes;
  }

  /** Live links pushed out to stay within the budget. */
  get evictions(): number {
    return this.live.evictions;
  }
}
