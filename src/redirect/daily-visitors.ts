// Daily unique visitors without keeping anyone (docs/decisions/0010). The view writer hashes each person's view
// with a random salt of the view's UTC day, the link, the full client address and the User-Agent; only the hash
// goes into the same-day set (view_visitors), and the salt lives nowhere but here. At the day change the salts of
// earlier days are dropped and the stores delete those days' hashes: what is left is a count per link and day.
// A restart mid-day starts a new salt, so a returning visitor may count twice that day; so does a person who
// reaches two nodes (each has its own salt).

const DAY_MS = 86_400_000;
/** Hash inputs and stored hashes remembered per writer; past that the memos start again. */
const MEMO_LIMIT = 50_000;

export const dayNumberOf = (at: number) => Math.floor(at / DAY_MS);

export class DailyVisitors {
  private readonly salts = new Map<number, Uint8Array>();
  /** Hashes by `day, link, address, agent`: the same visitors come back, and SHA-256 is the costly part. */
  private readonly hashes = new Map<string, number>();
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
    this.hashes.clear();
    this.stored.clear();
  }

  /**
   * The visitor's hash (53 bits, an exact JS number) for a view of `linkId` on `day`, or null when that day is
   * closed (a view stamped just before midnight that reached the writer after it closed the day).
   */
  hash(day: number, linkId: number, address: string, userAgent: string): number | null {
    if (day < this.today) return null;
    const input = `${day}\n${linkId}\n${address}\n${userAgent}`;
    let hash = this.hashes.get(input);
    if (hash === undefined) {
      let salt = this.salts.get(day);
      if (!salt) this.salts.set(day, (salt = crypto.getRandomValues(new Uint8Array(32))));
      const digest = new Bun.CryptoHasher("sha256").update(salt).update(input).digest();
      hash = (digest.readUInt32BE(0) & 0x1fffff) * 2 ** 32 + digest.readUInt32BE(4);
      if (this.hashes.size >= MEMO_LIMIT) this.hashes.clear();
      this.hashes.set(input, hash);
    }
    return hash;
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
