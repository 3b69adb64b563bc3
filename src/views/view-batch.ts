// A batch of counted views, kept in columns with repeated strings (User-Agents, addresses, referrers) stored
// once, so that handing it to the writer Worker is a transfer of buffers (view-store.ts stores it). The full
// client address only crosses to the writer: it hashes it for the daily unique visitors and stores it truncated
// (a batch sealed for the spool carries the hashes and the truncated addresses instead: views/view-seal.ts).

export type ViewRecord = {
  linkId: number;
  userId: number;
  isBot: boolean;
  platform: string | null;
  /** The full client address ('' when unknown): never written, see the header. */
  address: string;
  userAgent: string;
  attribution: string | null;
  /** The request carried the QR code's scan marker (`?qr=1`). */
  scan: boolean;
  at: number;
  /**
   * What was answered, for the crawler fetch record (views/crawler-fetches.ts); /go gives them all, a view recorded
   * without them is a 302 of the plain address (version 1). The link version fetched (1 for the plain address);
   * the card variant served to a card fetcher (preview crawler, search engine), null for a 302; the status, the
   * body's bytes and the milliseconds the answer took to build.
   */
  version?: number;
  rendition?: string | null;
  status?: number;
  bytes?: number;
  ms?: number;
};

export type ViewBatch = {
  size: number;
  linkId: Float64Array;
  userId: Float64Array;
  at: Float64Array;
  isBot: Uint8Array;
  scan: Uint8Array;
  version: Int32Array;
  status: Uint16Array;
  bytes: Int32Array;
  ms: Float32Array;
  /**
   * Set by the view writer before anything else (views/crawler-verification.ts), while the full address is at
   * hand: VERIFICATION's code of a card fetcher's claim, 0 for everyone else.
   */
  verification: Uint8Array;
  /** Indexes into `strings`; -1 for none. */
  platform: Int32Array;
  address: Int32Array;
  userAgent: Int32Array;
  attribution: Int32Array;
  rendition: Int32Array;
  strings: string[];
  /**
   * Set once the batch is sealed (views/view-seal.ts): each view's visitor hash for the day's set, -1 for none,
   * and `address` points at truncated addresses.
   */
  visitor?: Float64Array;
};

const INITIAL_CAPACITY = 1024;

/**
 * Collects views into typed columns with repeated strings (User-Agents, addresses, referrers) stored once, so that
 * handing a batch to the writer Worker is a transfer of buffers, not a copy (structured cloning showed up as a
 * tenth of the request thread's time). The columns grow by doubling, and shrink back slowly: a quiet window
 * holds a few views, a busy one thousands.
 */
export class ViewBatchBuilder {
  private batch = emptyBatch(INITIAL_CAPACITY);
  private capacity = INITIAL_CAPACITY;
  private stringIndex = new Map<string, number>();

  private intern(value: string | null): number {
    if (value === null) return -1;
    let index = this.stringIndex.get(value);
    if (index === undefined) {
      index = this.batch.strings.push(value) - 1;
      this.stringIndex.set(value, index);
    }
    return index;
  }

  private grow() {
    const bigger = emptyBatch(this.capacity * 2);
    for (const column of NUMERIC_COLUMNS)
      (bigger[column] as { set(values: ArrayLike<number>): void }).set(this.batch[column]);
    bigger.strings = this.batch.strings;
    bigger.size = this.batch.size;
    this.batch = bigger;
    this.capacity *= 2;
  }

  /** Adds a view; returns how many the batch holds. */
  add(v: ViewRecord): number {
    if (this.batch.size === this.capacity) this.grow();
    const b = this.batch;
    const i = b.size;
    b.linkId[i] = v.linkId;
    b.userId[i] = v.userId;
    b.at[i] = v.at;
    b.isBot[i] = v.isBot ? 1 : 0;
    b.scan[i] = v.scan ? 1 : 0;
    b.platform[i] = this.intern(v.platform);
    b.address[i] = this.intern(v.address);
    b.userAgent[i] = this.intern(v.userAgent.length > 1024 ? v.userAgent.slice(0, 1024) : v.userAgent);
    b.attribution[i] = this.intern(v.attribution);
    b.version[i] = v.version ?? 1;
    b.rendition[i] = this.intern(v.rendition ?? null);
    b.status[i] = v.status ?? 302;
    b.bytes[i] = v.bytes ?? 0;
    b.ms[i] = v.ms ?? 0;
    return ++b.size;
  }

  /** The batch so far, and the buffers to transfer with it; the builder starts a new one sized for the like. */
  take(): { batch: ViewBatch; transfer: ArrayBuffer[] } {
    const batch = this.batch;
    if (batch.size <= this.capacity / 4) this.capacity = Math.max(INITIAL_CAPACITY, this.capacity / 2);
    this.batch = emptyBatch(this.capacity);
    this.stringIndex = new Map();
    return { batch, transfer: NUMERIC_COLUMNS.map((column) => batch[column].buffer as ArrayBuffer) };
  }
}

/** Every typed column, as the spool writes them too (views/view-spool.ts). */
export const NUMERIC_COLUMNS = [
  "linkId",
  "userId",
  "at",
  "isBot",
  "scan",
  "platform",
  "address",
  "userAgent",
  "attribution",
  "version",
  "rendition",
  "status",
  "bytes",
  "ms",
  "verification",
] as const;

function emptyBatch(n: number): ViewBatch {
  return {
    size: 0,
    linkId: new Float64Array(n),
    userId: new Float64Array(n),
    at: new Float64Array(n),
    isBot: new Uint8Array(n),
    scan: new Uint8Array(n),
    platform: new Int32Array(n),
    address: new Int32Array(n),
    userAgent: new Int32Array(n),
    attribution: new Int32Array(n),
    version: new Int32Array(n),
    rendition: new Int32Array(n),
    status: new Uint16Array(n),
    bytes: new Int32Array(n),
    ms: new Float32Array(n),
    verification: new Uint8Array(n),
    strings: [],
  };
}
