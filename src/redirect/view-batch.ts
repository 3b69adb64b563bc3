// A batch of counted views, kept in columns with repeated strings (User-Agents, IPs, referrers) stored once,
// so handing it to the writer Worker is a cheap copy; and the transaction that stores one: the raw rows plus
// the per-link counters, per-day and per-platform rollups that every read uses, in one commit.
import type { Database } from "bun:sqlite";

export type ViewRecord = {
  linkId: number;
  userId: number;
  isBot: boolean;
  platform: string | null;
  ip: string | null;
  userAgent: string;
  attribution: string | null;
  at: number;
};

export type ViewBatch = {
  size: number;
  linkId: Float64Array;
  userId: Float64Array;
  at: Float64Array;
  isBot: Uint8Array;
  /** Indexes into `strings`; -1 for none. */
  platform: Int32Array;
  ip: Int32Array;
  userAgent: Int32Array;
  attribution: Int32Array;
  strings: string[];
};

const INITIAL_CAPACITY = 1024;

/**
 * Collects views into typed columns with repeated strings (User-Agents, IPs, referrers) stored once, so that
 * handing a batch to the writer Worker is a transfer of buffers, not a copy (structured cloning showed up as a
 * tenth of the request thread's time). The columns grow by doubling: a quiet window holds a few views, a busy
 * one thousands.
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
    for (const column of NUMERIC_COLUMNS) (bigger[column] as { set(values: ArrayLike<number>): void }).set(this.batch[column]);
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
    b.platform[i] = this.intern(v.platform);
    b.ip[i] = this.intern(v.ip);
    b.userAgent[i] = this.intern(v.userAgent.length > 1024 ? v.userAgent.slice(0, 1024) : v.userAgent);
    b.attribution[i] = this.intern(v.attribution);
    return ++b.size;
  }

  /** The batch so far, and the buffers to transfer with it; the builder starts a new one. */
  take(): { batch: ViewBatch; transfer: ArrayBuffer[] } {
    const batch = this.batch;
    this.capacity = INITIAL_CAPACITY;
    this.batch = emptyBatch(this.capacity);
    this.stringIndex = new Map();
    return { batch, transfer: NUMERIC_COLUMNS.map((column) => batch[column].buffer as ArrayBuffer) };
  }
}

const NUMERIC_COLUMNS = ["linkId", "userId", "at", "isBot", "platform", "ip", "userAgent", "attribution"] as const;

function emptyBatch(n: number): ViewBatch {
  return {
    size: 0,
    linkId: new Float64Array(n),
    userId: new Float64Array(n),
    at: new Float64Array(n),
    isBot: new Uint8Array(n),
    platform: new Int32Array(n),
    ip: new Int32Array(n),
    userAgent: new Int32Array(n),
    attribution: new Int32Array(n),
    strings: [],
  };
}

const DAY_MS = 86_400_000;
type Sums = { human: number; bot: number };

function bump<K>(map: Map<K, Sums>, key: K, isBot: number) {
  let sums = map.get(key);
  if (!sums) map.set(key, (sums = { human: 0, bot: 0 }));
  if (isBot) sums.bot++;
  else sums.human++;
}

/**
 * The connection should run with foreign_keys off: the batch checks each link's existence once instead of
 * SQLite checking it per row (a view of a link whose owner was removed meanwhile is dropped).
 */
export function createBatchWriter(sqlite: Database): (batch: ViewBatch) => void {
  const linkExists = sqlite.query<{ id: number }, [number]>(`SELECT id FROM links WHERE id = ?`);
  const insertView = sqlite.query(
    `INSERT INTO views (user_id, link_id, ip, user_agent, attribution, is_bot, platform, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const addToLink = sqlite.query(
    `INSERT INTO link_counters (link_id, views_human, views_bot) VALUES (?, ?, ?)
     ON CONFLICT (link_id) DO UPDATE SET views_human = views_human + excluded.views_human, views_bot = views_bot + excluded.views_bot`,
  );
  const addToDay = sqlite.query(
    `INSERT INTO view_days (link_id, day, human, bot) VALUES (?, ?, ?, ?)
     ON CONFLICT (link_id, day) DO UPDATE SET human = human + excluded.human, bot = bot + excluded.bot`,
  );
  const addToPlatform = sqlite.query(
    `INSERT INTO view_platforms (link_id, platform, count) VALUES (?, ?, ?)
     ON CONFLICT (link_id, platform) DO UPDATE SET count = count + excluded.count`,
  );

  return sqlite.transaction((b: ViewBatch) => {
    const text = (index: number) => (index < 0 ? null : b.strings[index]!);
    const perLink = new Map<number, Sums>();
    for (let i = 0; i < b.size; i++) bump(perLink, b.linkId[i]!, b.isBot[i]!);
    const live = new Set<number>();
    for (const linkId of perLink.keys()) if (linkExists.get(linkId)) live.add(linkId);

    // Keyed by link and day number / platform string index, as one number.
    const perDay = new Map<number, Sums>();
    const perPlatform = new Map<number, Sums>();
    const stride = b.strings.length + 1;
    for (let i = 0; i < b.size; i++) {
      const linkId = b.linkId[i]!;
      if (!live.has(linkId)) continue;
      const at = b.at[i]!;
      insertView.run(b.userId[i]!, linkId, text(b.ip[i]!), text(b.userAgent[i]!), text(b.attribution[i]!), b.isBot[i]!, text(b.platform[i]!), at);
      bump(perDay, linkId * 1_000_000 + Math.floor(at / DAY_MS), b.isBot[i]!);
      if (b.platform[i]! >= 0) bump(perPlatform, linkId * stride + b.platform[i]!, 1);
    }
    // Counters in id order: each commit then touches the counter pages in one sweep.
    for (const [linkId, sums] of [...perLink].sort((x, y) => x[0] - y[0])) {
      if (live.has(linkId)) addToLink.run(linkId, sums.human, sums.bot);
    }
    for (const [key, sums] of perDay) {
      const day = new Date((key % 1_000_000) * DAY_MS).toISOString().slice(0, 10);
      addToDay.run(Math.floor(key / 1_000_000), day, sums.human, sums.bot);
    }
    for (const [key, sums] of perPlatform) addToPlatform.run(Math.floor(key / stride), b.strings[key % stride]!, sums.bot);
  }).immediate as (batch: ViewBatch) => void;
}
