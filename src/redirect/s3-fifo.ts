// A cache bounded in bytes with S3-FIFO eviction (Yang et al., SOSP 2023; docs/decisions/0022): new keys enter a
// small FIFO (a tenth of the budget); one read again before it leaves moves to the main FIFO, the others leave
// and are remembered as ghosts (hashes only), so that a key coming back soon goes straight to main. The main FIFO
// gives each key read since its last pass another turn. A stream of keys read once (a scan) only ever churns the
// small queue: the main queue's keys stay.

/** What one remembered ghost costs: a number in a set and in the ring that orders them. */
export const GHOST_BYTES = 40;
/** The small queue's share of the budget, as in the paper. */
const SMALL_SHARE = 0.1;
/** Reads remembered per key: a key read three times survives three passes of the main queue. */
const MAX_FREQ = 3;

type Node<V> = { key: string; value: V; bytes: number; freq: number; queue: Queue<V> | null };

/** A FIFO of nodes; a node deleted from the cache stays until it reaches the head (queue null) and is skipped. */
class Queue<V> {
  private items: Array<Node<V>> = [];
  private head = 0;
  bytes = 0;
  /** Nodes held (deleted ones excluded). */
  count = 0;

  push(node: Node<V>): void {
    node.queue = this;
    this.bytes += node.bytes;
    this.count++;
    this.items.push(node);
  }

  /** The oldest node still in this queue, taken out; undefined when empty. */
  shift(): Node<V> | undefined {
    while (this.head < this.items.length) {
      const node = this.items[this.head]!;
      this.items[this.head++] = undefined as never;
      if (node.queue !== this) continue;
      this.remove(node);
      this.compact();
      return node;
    }
    return undefined;
  }

  /** Takes `node` out where it is (it is skipped when it reaches the head). */
  remove(node: Node<V>): void {
    node.queue = null;
    this.bytes -= node.bytes;
    this.count--;
    this.compact();
  }

  /** Drops the slots of taken and deleted nodes once they outnumber the held ones. */
  private compact(): void {
    if (this.items.length - this.count < 1024 + this.count) return;
    this.items = this.items.slice(this.head).filter((node) => node !== undefined && node.queue === this);
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

export class S3Fifo<V> {
  private readonly nodes = new Map<string, Node<V>>();
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

  /** The value, counted as read (what keeps it in the cache). */
  get(key: string): V | undefined {
    const node = this.nodes.get(key);
    if (node === undefined) return undefined;
    if (node.freq < MAX_FREQ) node.freq++;
    return node.value;
  }

  /**
   * Stores `value`, charged `bytes`. `seen`: already known to be wanted (a cache filled at start), so it goes to
   * the main queue, and nothing is evicted for it: it is stored only if it fits. Returns whether it is held.
   */
  set(key: string, value: V, bytes: number, seen = false): boolean {
    this.delete(key);
    if (bytes > this.budget * SMALL_SHARE || (seen && this.bytes + bytes > this.budget)) return false;
    const node: Node<V> = { key, value, bytes, freq: 0, queue: null };
    this.nodes.set(key, node);
    (seen || this.ghosts.take(Bun.hash.xxHash32(key)) ? this.main : this.small).push(node);
    this.fit();
    return this.nodes.get(key) === node;
  }

  /**
   * Charges `extra` bytes more to `key` if it still holds `value` (it grew in place), evicting to fit. The node
   * keeps its place: taken out and pushed again, its old slot would still name it, and compact() would keep both.
   */
  grow(key: string, value: V, extra: number): void {
    const node = this.nodes.get(key);
    if (node === undefined || node.value !== value || node.queue === null) return;
    if (node.bytes + extra > this.budget * SMALL_SHARE) return this.delete(key);
    node.bytes += extra;
    node.queue.bytes += extra;
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
      if (this.small.count > 0 && (this.small.bytes >= this.budget * SMALL_SHARE || this.main.count === 0)) this.evictSmall();
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

  private evict(node: Node<V>): void {
    this.nodes.delete(node.key);
    this.evictions++;
  }
}
