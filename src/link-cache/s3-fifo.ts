// A cache bounded in bytes with S3-FIFO eviction (Yang et al., SOSP 2023; docs/decisions/0022): new keys enter a
// small FIFO (a tenth of the budget); one read again before it leaves moves to the main FIFO, the others leave
// and are remembered as ghosts (hashes only), so that a key coming back soon goes straight to main. The main FIFO
// gives each key read since its last pass another turn. A stream of keys read once (a scan) only ever churns the
// small queue: the main queue's keys stay.
// Intrusive: each value carries its own bookkeeping (Slot), so that a read goes from the map straight to the value,
// one memory hop fewer on every /go at a million links than a node that points at it (docs/decisions/0039).

/** What one remembered ghost costs: a number in a set and in the ring that orders them. */
export const GHOST_BYTES = 40;
/** The small queue's share of the budget, as in the paper. */
const SMALL_SHARE = 0.1;
/** Reads remembered per key: a key read three times survives three passes of the main queue. */
const MAX_FREQ = 3;

/** What a value knows of the queue that holds it. */
type Holder = { bytes: number; remove(node: Slot): void };

/** The cache's bookkeeping on a value it holds; a new value starts from newSlot(). */
export type Slot = {
  readonly key: string;
  /** What the value is charged. */
  bytes: number;
  /** Reads since its last pass (at most MAX_FREQ). */
  freq: number;
  /** The queue that holds it, null when not held. */
  queue: Holder | null;
  /** Its index in that queue's items: a slot left behind by a deletion names another index, and is skipped. */
  place: number;
};

export const newSlot = (key: string): Slot => ({ key, bytes: 0, freq: 0, queue: null, place: -1 });

/** A FIFO of values; a value deleted from the cache stays until it reaches the head and is skipped. */
class Queue<V extends Slot> {
  private items: Array<V | undefined> = [];
  private head = 0;
  bytes = 0;
  /** Values held (deleted ones excluded). */
  count = 0;

  push(node: V): void {
    node.queue = this;
    node.place = this.items.length;
    this.bytes += node.bytes;
    this.count++;
    this.items.push(node);
  }

  /** The oldest value still in this queue, taken out; undefined when empty. */
  shift(): V | undefined {
    while (this.head < this.items.length) {
      const place = this.head++;
      const node = this.items[place];
      this.items[place] = undefined;
      if (node === undefined || !this.holds(node, place)) continue;
      this.remove(node);
      return node;
    }
    return undefined;
  }

  /** Takes `node` out where it is (its slot is skipped when it reaches the head). */
  remove(node: V): void {
    node.queue = null;
    this.bytes -= node.bytes;
    this.count--;
    this.compact();
  }

  /** Whether the slot at `place` is `node`'s current one (a value deleted and stored again has a newer one). */
  private holds(node: V, place: number): boolean {
    return node.queue === this && node.place === place;
  }

  /** Drops the slots of taken and deleted values once they outnumber the held ones. */
  private compact(): void {
    if (this.items.length - this.count < 1024 + this.count) return;
    const kept: V[] = [];
    for (let place = this.head; place < this.items.length; place++) {
      const node = this.items[place];
      if (node === undefined || !this.holds(node, place)) continue;
      node.place = kept.length;
      kept.push(node);
    }
    this.items = kept;
    this.head = 0;
  }
}

/** Recently evicted keys, as 32-bit hashes, oldest first; a collision only sends a key to main early. */
class Ghosts {
  private readonly set = new Set<number>();
  private ring: number[] = [];
  private head = 0;

  get size(): number {
    return this.set.size;
  }

  add(hash: number, limit: number): void {
    this.set.add(hash);
    this.ring.push(hash);
    this.trim(limit);
  }

  take(hash: number): boolean {
    return this.set.delete(hash);
  }

  trim(limit: number): void {
    while (this.set.size > limit && this.head < this.ring.length) this.set.delete(this.ring[this.head++]!);
    if (this.head > 1024 && this.head * 2 > this.ring.length) {
      this.ring = this.ring.slice(this.head);
      this.head = 0;
    }
  }

  clear(): void {
    this.set.clear();
    this.ring = [];
    this.head = 0;
  }
}

export class S3Fifo<V extends Slot> {
  private readonly nodes = new Map<string, V>();
  private readonly small = new Queue<V>();
  private readonly main = new Queue<V>();
  private readonly ghosts = new Ghosts();
  /** Values pushed out to stay within the budget (not deletions). */
  evictions = 0;

  constructor(readonly budget: number) {}

  /** Bytes held: the values as charged, and the ghosts. Never above the budget once a call returns. */
  get bytes(): number {
    return this.small.bytes + this.main.bytes + this.ghosts.size * GHOST_BYTES;
  }

  get size(): number {
    return this.nodes.size;
  }

  /** Whether `key` is held, without counting a read. */
  has(key: string): boolean {
    return this.nodes.has(key);
  }

  /** The value, not counted as read. */
  peek(key: string): V | undefined {
    return this.nodes.get(key);
  }

  /** The value, counted as read (what keeps it in the cache). */
  get(key: string): V | undefined {
    const node = this.nodes.get(key);
    if (node !== undefined && node.freq < MAX_FREQ) node.freq++;
    return node;
  }

  /**
   * Stores `value` under its key, charged `bytes`. `seen`: already known to be wanted (a cache filled at start),
   * so it goes to the main queue, and nothing is evicted for it: it is stored only if it fits. Returns whether it
   * is held.
   */
  set(value: V, bytes: number, seen = false): boolean {
    const key = value.key;
    this.delete(key);
    if (bytes > this.budget * SMALL_SHARE || (seen && this.bytes + bytes > this.budget)) return false;
    value.bytes = bytes;
    value.freq = 0;
    this.nodes.set(key, value);
    (seen || this.ghosts.take(Bun.hash.xxHash32(key)) ? this.main : this.small).push(value);
    this.fit();
    return this.nodes.get(key) === value;
  }

  /** Charges `extra` bytes more to `value` if it is held (it grew in place), evicting to fit; it keeps its place. */
  grow(value: V, extra: number): void {
    if (this.nodes.get(value.key) !== value || value.queue === null) return;
    if (value.bytes + extra > this.budget * SMALL_SHARE) return this.delete(value.key);
    value.bytes += extra;
    value.queue.bytes += extra;
    this.fit();
  }

  delete(key: string): void {
    const node = this.nodes.get(key);
    if (node === undefined) return;
    this.nodes.delete(key);
    node.queue?.remove(node);
  }

  /** Deletes every key that passes `test` (a pass over all keys). */
  deleteWhere(test: (key: string) => boolean): void {
    for (const key of this.nodes.keys()) if (test(key)) this.delete(key);
  }

  clear(): void {
    for (const node of this.nodes.values()) node.queue?.remove(node);
    this.nodes.clear();
    this.ghosts.clear();
  }

  private fit(): void {
    while (this.bytes > this.budget) {
      if (this.small.count > 0 && (this.small.bytes >= this.budget * SMALL_SHARE || this.main.count === 0))
        this.evictSmall();
      else if (this.main.count > 0) this.evictMain();
      else this.ghosts.trim(0);
    }
    // As many ghosts as the main queue holds keys (the paper's choice).
    this.ghosts.trim(Math.max(this.main.count, 64));
  }

  private evictSmall(): void {
    const node = this.small.shift()!;
    if (node.freq > 0) {
      node.freq = 0;
      this.main.push(node);
      return;
    }
    this.evict(node);
    this.ghosts.add(Bun.hash.xxHash32(node.key), Math.max(this.main.count, 64));
  }

  private evictMain(): void {
    const node = this.main.shift()!;
    if (node.freq > 0) {
      node.freq--;
      this.main.push(node);
      return;
    }
    this.evict(node);
  }

  private evict(node: V): void {
    this.nodes.delete(node.key);
    this.evictions++;
  }
}
