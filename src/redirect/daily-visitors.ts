// Daily unique visitors without keeping anyone (docs/decisions/0010). The view writer hashes each person's view
// with a random salt of the view's UTC day, the link, the full client address and the User-Agent; only the hash
// goes into the same-day set (view_visitors), and the salt lives nowhere but here. At the day change the salts of
// earlier days are dropped and the stores delete those days' hashes: what is left is a count per link and day.
// A restart mid-day starts a new salt, so a returning visitor may count twice that day; so does a person who
// reaches two nodes (each has its own salt).

const DAY_MS = 86_400_000;
/**
 * Today's visitors (per link) whose hash, and whether it is stored, the memos keep; past that they start again.
 * A writer that forgets a visitor pays a SHA-256 and a database lookup on that visitor's next view, so the memos
 * hold a busy day's repeat visitors (the benchmark's 10,000 links × 8 browsers need 80,000). At most some 30 MB:
 * a few hundred bytes for a visitor's first link, tens for each further one.
 */
const MEMO_LIMIT = 100_000;

export const dayNumberOf = (at: number) => Math.floor(at / DAY_MS);

export class DailyVisitors {
  private readonly salts = new Map<number, Uint8Array>();
  /**
   * Today's hashes by address, then agent, then link: the same visitors come back, and SHA-256 is the costly
   * part. Keyed by the batch's own strings, not a string built per view: a JS string hashes once, so a view that
   * hits costs three map lookups.
   */
  private hashes = new Map<string, Map<string, Map<number, number>>>();
  private memoSize = 0;
  /** Hashes known to be in the same-day set already (committed): no need to ask the database again. */
  private readonly stored = new Set<number>();
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
    this.hashes = new Map();
    this.memoSize = 0;
    this.stored.clear();
  }

  /**
   * The visitor's hash (53 bits, an exact JS number) for a view of `linkId` on `day`, or null when that day is
   * closed (a view stamped just before midnight that reached the writer after it closed the day).
   */
  hash(day: number, linkId: number, address: string, userAgent: string): number | null {
    if (day < this.today) return null;
    // A view of a later day (past midnight, before the writer closes today) is rare: no memo.
    if (day > this.today) return this.digest(day, linkId, address, userAgent);
    let byAgent = this.hashes.get(address);
    if (byAgent === undefined) this.hashes.set(address, (byAgent = new Map()));
    let byLink = byAgent.get(userAgent);
    if (byLink === undefined) byAgent.set(userAgent, (byLink = new Map()));
    let hash = byLink.get(linkId);
    if (hash === undefined) {
      hash = this.digest(day, linkId, address, userAgent);
      if (++this.memoSize > MEMO_LIMIT) {
        this.hashes = new Map();
        this.memoSize = 0;
      } else byLink.set(linkId, hash);
    }
    return hash;
  }

  /** SHA-256 of the day's salt and the view's visitor, cut to 53 bits. */
  private digest(day: number, linkId: number, address: string, userAgent: string): number {
    let salt = this.salts.get(day);
    if (!salt) this.salts.set(day, (salt = crypto.getRandomValues(new Uint8Array(32))));
    const digest = new Bun.CryptoHasher("sha256").update(salt).update(`${day}\n${linkId}\n${address}\n${userAgent}`).digest();
    return (digest.readUInt32BE(0) & 0x1fffff) * 2 ** 32 + digest.readUInt32BE(4);
  }

  isStored(hash: number): boolean {
    return this.stored.has(hash);
  }

  /** Hashes now committed to the same-day set. */
  remember(hashes: Iterable<number>): void {
    for (const hash of hashes) {
      if (this.stored.size >= MEMO_LIMIT) this.stored.clear();
      this.stored.add(hash);
    }
  }
}
