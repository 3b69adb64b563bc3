// Every short address that may exist, as 32-bit hashes in an open-addressing table (4 bytes a slot, at most half
// full: some 8 MB for a million links). An address whose hash is absent certainly does not exist, so /go answers
// it without reading the database; a present one may still not exist (a collision, about one unknown address in
// 4,000 with a million links, or a deleted link: hashes are only ever added) and is looked up as before.

const INITIAL_SLOTS = 1024;

const hashOf = (key: string) => Bun.hash.xxHash32(key) || 1; // 0 marks an empty slot

export class AddressFilter {
  private slots = new Uint32Array(INITIAL_SLOTS);
  private count = 0;

  /** Memory held by the table. */
  get bytes(): number {
    return this.slots.byteLength;
  }

  add(key: string): void {
    if ((this.count + 1) * 2 > this.slots.length) this.resize(this.slots.length * 2);
    if (this.insert(this.slots, hashOf(key))) this.count++;
  }

  /** false: `key` was never added. */
  mayHave(key: string): boolean {
    const hash = hashOf(key);
    const slots = this.slots;
    const mask = slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const slot = slots[i]!;
      if (slot === hash) return true;
      if (slot === 0) return false;
    }
  }

  /** Puts `hash` in `slots` unless it is there; whether it was added. */
  private insert(slots: Uint32Array, hash: number): boolean {
    const mask = slots.length - 1;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      if (slots[i] === hash) return false;
      if (slots[i] === 0) {
        slots[i] = hash;
        return true;
      }
    }
  }

  private resize(length: number): void {
    const bigger = new Uint32Array(length);
    for (const hash of this.slots) if (hash !== 0) this.insert(bigger, hash);
    this.slots = bigger;
  }
}
