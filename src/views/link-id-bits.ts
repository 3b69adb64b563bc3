// The view writer's memo of link ids known to exist (views/view-store.ts), one bit per id: link ids are SQLite
// rowids, dense from 1, so a million links take 125 kB. A Set of them took some 40 bytes an id and had to be
// capped, and past its cap a server with a million links asked SQLite again for most of every batch's links.

/** Ids from here on are not remembered (asked of the database each time): the bits stay under 16 MB. */
const ID_LIMIT = 2 ** 27;

export type LinkIds = { has(id: number): boolean };

export class LinkIdBits implements LinkIds {
  private bits = new Uint8Array(1024);
  /** Bytes up to the highest one set since the last clear: what clear() must zero. */
  private used = 0;

  has(id: number): boolean {
    const byte = Math.floor(id / 8);
    return byte < this.bits.length && (this.bits[byte]! & (1 << (id % 8))) !== 0;
  }

  add(id: number): void {
    if (!Number.isSafeInteger(id) || id < 0 || id >= ID_LIMIT) return;
    const byte = Math.floor(id / 8);
    if (byte >= this.bits.length) {
      const wider = new Uint8Array(Math.min(ID_LIMIT / 8, Math.max(byte + 1, this.bits.length * 2)));
      wider.set(this.bits);
      this.bits = wider;
    }
    this.bits[byte]! |= 1 << (id % 8);
    if (byte >= this.used) this.used = byte + 1;
  }

  clear(): void {
    this.bits.fill(0, 0, this.used);
    this.used = 0;
  }
}
