// Daily unique visitors without keeping anyone (docs/decisions/0010). The view writer hashes each person's view
// with a random salt of the view's UTC day, the link, the full client address and the User-Agent; only the hash
// goes into the same-day set (view_visitors), and the salt lives nowhere but here. At the day change the salts of
// earlier days are dropped and the stores delete those days' hashes: what is left is a count per link and day.
// A restart mid-day starts a new salt, so a returning visitor may count twice that day; so does a person who
// reaches two nodes (each has its own salt).
// A batch the database refuses is sealed before it is spooled (views/view-seal.ts): its hashes are computed
// then, with the same salt, so that the spool never holds a full address (docs/decisions/0020).
import type { ViewBatch } from "./view-batch.ts";

const DAY_MS = 86_400_000;
const SALT_BYTES = 32;
const textEncoder = new TextEncoder();
/**
 * Today's visitors each of the memo's two generations keeps: when the young one is full it becomes the old one
 * (the old one is dropped), and what is found in the old one moves back to the young one, so the memo forgets
 * whom it has not met for a generation, never everyone at once (a hot link's visitors stay while a long tail of
 * one-off visitors passes through). A forgotten visitor's next view costs a SHA-256 and an insert that the
 * database's set dedupes. A busy day's repeat visitors fit one generation: the benchmark's 10,000 links × 8
 * browsers need 80,000 (docs/decisions/0037).
 */
const MEMO_LIMIT = 100_000;
/**
 * The (address, User-Agent) pairs each generation keeps: they hold the strings, so half as many, which keeps the
 * memo near its single-generation size (some 60 MB at most, with every pair a new address and User-Agent; a few
 * MB for the visitor numbers).
 */
const PAIR_LIMIT = 50_000;
/** Link ids below this share a memo key with their pair number (exact: pair numbers stay below 2^21). */
const LINK_ID_SPAN = 2 ** 32;
/** Pair numbers are never reused while a key may hold them; when they run out (after 41 generations) the memo starts again. */
const PAIR_NUMBERS = 2 ** 21;

export const dayNumberOf = (at: number) => Math.floor(at / DAY_MS);

export class DailyVisitors {
  private readonly salts = new Map<number, Uint8Array>();
  /**
   * The hash's input, a salt and a visitor's text, written in place: a first visit costs no hasher and no digest
   * object (a third less time per hash than a new Bun.CryptoHasher). Cleared with the salts of closed days.
   */
  private input = new Uint8Array(SALT_BYTES + 1024);
  private readonly output = new Uint8Array(64);
  private readonly outputView = new DataView(this.output.buffer);
  /** Today's (address, User-Agent) pairs, numbered: a visitor is a pair and a link. Young and old generation. */
  private pairs = new Map<string, Map<string, number>>();
  private pairsBefore = new Map<string, Map<string, number>>();
  private pairCount = 0;
  private nextPair = 0;
  /**
   * Today's visitors already sent to the same-day set, as `pair × 2^32 + link`: one number per visitor, so that
   * a returning visitor costs one set lookup (the writer runs this for every person's view, beside a busy
   * request thread: each memory access counts). Young and old generation.
   */
  private seen = new Set<number>();
  private seenBefore = new Set<number>();
  /** The current batch's pair numbers by `address index × strings + agent index`: its strings are looked up once. */
  private batchPairs = new Map<number, number>();
  private batchStrings: string[] = [];
  /** The UTC day (days since 1970) the clock was on when last asked. */
  today: number;

  constructor(private readonly now: () => number) {
    this.today = dayNumberOf(now());
  }

  /** The clock's UTC day, when it is past `today` (the caller closes the earlier days, then calls `closeDaysBefore`). */
  newDay(): number | null {
    const day = dayNumberOf(this.now());
    return day > this.today ? day : null;
  }

  /** Forgets the salts (and so every way to recompute a hash) of the days before `day`. */
  closeDaysBefore(day: number): void {
    this.today = day;
    for (const saltDay of this.salts.keys()) if (saltDay < day) this.salts.delete(saltDay);
    this.input.fill(0);
    this.forget();
  }

  /**
   * Forgets who was seen today: after a write that failed (its visitors may not be stored), at the day change,
   * or when the pair numbers run out. The database's set still tells who is new.
   */
  forget(): void {
    this.pairs = new Map();
    this.pairsBefore = new Map();
    this.pairCount = 0;
    this.nextPair = 0;
    this.seen = new Set();
    this.seenBefore = new Set();
    this.batchPairs = new Map();
  }

  /** Starts a batch whose addresses and agents are indexes into `strings`. */
  startBatch(strings: string[]): void {
    this.batchStrings = strings;
    this.batchPairs = new Map();
  }

  /**
   * The visitor's hash (53 bits, an exact JS number) when this person's view of `linkId` on `day` may be their
   * first of the day, to be added to the same-day set (the set tells whether it was); null when the visitor was
   * already sent, or when that day is closed (a view stamped just before midnight that reached the writer after
   * it closed the day). Addresses and agents are indexes into the batch's strings.
   */
  firstVisit(day: number, linkId: number, address: number, agent: number): number | null {
    if (day < this.today) return null;
    // A view of a later day (past midnight, before the writer closes today) is rare: no memo, the set dedupes.
    if (day > this.today || linkId >= LINK_ID_SPAN) return this.digest(day, linkId, address, agent);
    const key = this.pairOf(address, agent) * LINK_ID_SPAN + linkId;
    if (this.seen.has(key)) return null;
    const returning = this.seenBefore.has(key);
    if (this.seen.size >= MEMO_LIMIT) {
      this.seenBefore = this.seen;
      this.seen = new Set();
    }
    this.seen.add(key);
    return returning ? null : this.digest(day, linkId, address, agent);
  }

  /**
   * The hash of view `i` of the batch to add to the day's set, or null: as `firstVisit`, or, for a sealed batch,
   * the hash it carries (none for a day closed since: that salt is gone, and so are that day's hashes).
   */
  visitOf(b: ViewBatch, i: number, day: number): number | null {
    if (!b.visitor) return this.firstVisit(day, b.linkId[i]!, b.address[i]!, b.userAgent[i]!);
    const hash = b.visitor[i]!;
    return hash < 0 || day < this.today ? null : hash;
  }

  /** The visitor's hash without the memo (a batch being sealed); null when that day is closed. */
  hash(day: number, linkId: number, address: string, agent: string): number | null {
    return day < this.today ? null : this.digestOf(day, linkId, address, agent);
  }

  private pairOf(address: number, agent: number): number {
    const batchKey = address * this.batchStrings.length + agent;
    let pair = this.batchPairs.get(batchKey);
    if (pair === undefined) {
      const addressText = this.batchStrings[address]!;
      const agentText = this.batchStrings[agent]!;
      pair = this.pairs.get(addressText)?.get(agentText);
      if (pair === undefined) {
        pair = this.pairsBefore.get(addressText)?.get(agentText);
        if (pair === undefined) {
          if (this.nextPair >= PAIR_NUMBERS) {
            this.forget();
            return this.pairOf(address, agent);
          }
          pair = this.nextPair++;
        }
        if (this.pairCount >= PAIR_LIMIT) {
          this.pairsBefore = this.pairs;
          this.pairs = new Map();
          this.pairCount = 0;
        }
        let byAgent = this.pairs.get(addressText);
        if (byAgent === undefined) this.pairs.set(addressText, (byAgent = new Map()));
        byAgent.set(agentText, pair);
        this.pairCount++;
      }
      this.batchPairs.set(batchKey, pair);
    }
    return pair;
  }

  /** SHA-256 of the day's salt and the view's visitor, cut to 53 bits. */
  private digest(day: number, linkId: number, address: number, agent: number): number {
    return this.digestOf(day, linkId, this.batchStrings[address]!, this.batchStrings[agent]!);
  }

  private digestOf(day: number, linkId: number, address: string, agent: string): number {
    let salt = this.salts.get(day);
    if (!salt) this.salts.set(day, (salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES))));
    const visitor = `${day}\n${linkId}\n${address}\n${agent}`;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (SALT_BYTES + 3 * visitor.length > this.input.length)
      this.input = new Uint8Array(SALT_BYTES + 3 * visitor.length);
    this.input.set(salt);
    const { written } = textEncoder.encodeInto(visitor, this.input.subarray(SALT_BYTES));
    Bun.SHA256.hash(this.input.subarray(0, SALT_BYTES + written), this.output);
    return (this.outputView.getUint32(0) & 0x1fffff) * 2 ** 32 + this.outputView.getUint32(4);
  }
}
