// A batch of counted views, kept in columns with repeated strings (User-Agents, IPs, referrers) stored once,
// so handing it to the writer Worker is a cheap copy; and the transaction that stores one: the raw rows plus
// the per-link, per-day, per-platform rollups that every read uses, in one commit.
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
/** Distinct User-Agents the writer remembers the ids of; a flood of random agents only clears it. */
const AGENT_MEMO_LIMIT = 10_000;
type Sums = { human: number; bot: number };

/**
 * The connection should run with foreign_keys off: the batch checks its links' existence once instead of
 * SQLite checking it per row (a view of a link whose owner was removed meanwhile is dropped).
 */
export function createBatchWriter(sqlite: Database): (batch: ViewBatch) => void {
  const liveLinks = sqlite.query<{ id: number }, [string]>(`SELECT id FROM links WHERE id IN (SELECT value FROM json_each(?))`);
  const findAgent = sqlite.query<{ id: number }, [string]>(`SELECT id FROM user_agents WHERE text = ?`);
  const addAgent = sqlite.query<{ id: number }, [string]>(`INSERT INTO user_agents (text) VALUES (?) RETURNING id`);
  const insertView = sqlite.query(
    `INSERT INTO views (user_id, link_id, ip, user_agent_id, attribution, is_bot, platform, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const addToRollup = sqlite.query(
    `INSERT INTO view_rollups (link_id, day, platform, human, bot) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (link_id, day, platform) DO UPDATE SET human = human + excluded.human, bot = bot + excluded.bot`,
  );
  const agentIds = new Map<string, number>();
  const dayNames = new Map<number, string>();
  const dayName = (day: number) => {
    let name = dayNames.get(day);
    if (name === undefined) dayNames.set(day, (name = new Date(day * DAY_MS).toISOString().slice(0, 10)));
    return name;
  };

  /** `learned` collects agents added by this transaction: remembered only once it commits. */
  const write = sqlite.transaction((b: ViewBatch, learned: Map<string, number>) => {
    const text = (index: number) => (index < 0 ? null : b.strings[index]!);
    const agentOf = (index: number) => {
      const agent = b.strings[index]!;
      let id = agentIds.get(agent) ?? learned.get(agent);
      if (id === undefined) learned.set(agent, (id = (findAgent.get(agent) ?? addAgent.get(agent)!).id));
      return id;
    };
    const live = new Set(liveLinks.all(JSON.stringify([...new Set(b.linkId.subarray(0, b.size))])).map((r) => r.id));

    // Rollup sums keyed by link and day (one number), then by platform string index (-1: people).
    const rollups = new Map<number, Map<number, Sums>>();
    const agentIdAt = new Map<number, number>();
    for (let i = 0; i < b.size; i++) {
      const linkId = b.linkId[i]!;
      if (!live.has(linkId)) continue;
      const at = b.at[i]!;
      const agentIndex = b.userAgent[i]!;
      let agentId = agentIdAt.get(agentIndex);
      if (agentId === undefined) agentIdAt.set(agentIndex, (agentId = agentOf(agentIndex)));
      insertView.run(b.userId[i]!, linkId, text(b.ip[i]!), agentId, text(b.attribution[i]!), b.isBot[i]!, text(b.platform[i]!), at);

      const linkDay = linkId * 100_000 + Math.floor(at / DAY_MS);
      let byPlatform = rollups.get(linkDay);
      if (!byPlatform) rollups.set(linkDay, (byPlatform = new Map()));
      let sums = byPlatform.get(b.platform[i]!);
      if (!sums) byPlatform.set(b.platform[i]!, (sums = { human: 0, bot: 0 }));
      if (b.isBot[i]) sums.bot++;
      else sums.human++;
    }
    // In key order: each commit then touches the rollup pages in one sweep.
    for (const linkDay of [...rollups.keys()].sort((x, y) => x - y)) {
      const linkId = Math.floor(linkDay / 100_000);
      const day = dayName(linkDay % 100_000);
      for (const [platform, sums] of rollups.get(linkDay)!) addToRollup.run(linkId, day, text(platform) ?? "", sums.human, sums.bot);
    }
  }).immediate as (batch: ViewBatch, learned: Map<string, number>) => void;

  return (batch) => {
    const learned = new Map<string, number>();
    write(batch, learned);
    if (agentIds.size + learned.size > AGENT_MEMO_LIMIT) agentIds.clear();
    for (const [agent, id] of learned) agentIds.set(agent, id);
  };
}
