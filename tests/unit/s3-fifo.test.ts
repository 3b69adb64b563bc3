// The byte-bounded S3-FIFO under the link cache: its accounting is exact and never above the budget, and keys
// read once (a scan) do not push out keys read again.
import { expect, test } from "bun:test";
import { GHOST_BYTES, newSlot, S3Fifo, type Slot } from "../../src/link-cache/s3-fifo.ts";

/** A seeded generator (mulberry32): the same operations on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("after any mix of sets, reads, growth and deletions the bytes held are exactly what was charged, never above the budget", () => {
  const budget = 50_000;
  const cache = new S3Fifo<Slot>(budget);
  /** What the test charged each value, to recompute what the cache must hold. */
  const charged = new Map<string, { value: Slot; bytes: number }>();
  const next = random(42);
  for (let step = 0; step < 50_000; step++) {
    const key = `k${Math.floor(next() ** 2 * 2_000)}`;
    const roll = next();
    if (roll < 0.5) {
      cache.get(key);
    } else if (roll < 0.8) {
      // Now and then the value held is stored again (a slot it left behind must not count it twice).
      const value = roll < 0.55 && cache.peek(key) ? cache.peek(key)! : newSlot(key);
      const bytes = 100 + Math.floor(next() * 2_000);
      cache.set(value, bytes);
      charged.set(key, { value, bytes });
    } else if (roll < 0.95) {
      const held = charged.get(key);
      const extra = Math.floor(next() * 3_000);
      if (held && cache.get(key) === held.value) {
        cache.grow(held.value, extra);
        held.bytes += extra;
      }
    } else cache.delete(key);
    expect(cache.bytes).toBeLessThanOrEqual(budget);
  }
  // The values it still holds, at what they were charged, plus the ghosts: nothing else, nothing lost.
  let held = 0;
  let count = 0;
  for (const [key, { value, bytes }] of charged) {
    if (cache.get(key) === value) {
      held += bytes;
      count++;
    }
  }
  expect(count).toBe(cache.size);
  expect(cache.bytes - held).toBeGreaterThanOrEqual(0);
  expect((cache.bytes - held) % GHOST_BYTES).toBe(0);
  expect(cache.evictions).toBeGreaterThan(1_000);
});

test("a scan of keys read once never evicts the keys read again", () => {
  const cache = new S3Fifo<Slot>(100 * 1_000);
  const hot = Array.from({ length: 50 }, (_, i) => newSlot(`hot${i}`));
  for (const value of hot) cache.set(value, 1_000);
  for (const value of hot) cache.get(value.key);
  for (let i = 0; i < 100_000; i++) {
    cache.set(newSlot(`scan${i}`), 1_000);
    // The popular keys keep being read, as they are on /go, while the scan goes on.
    if (i % 25 === 0) for (const value of hot) expect(cache.get(value.key)).toBe(value);
  }
  expect(cache.bytes).toBeLessThanOrEqual(100 * 1_000);
});

test("a value larger than the small queue is not stored; a value filled in at start never evicts another", () => {
  const cache = new S3Fifo<Slot>(10_000);
  expect(cache.set(newSlot("big"), 1_001)).toBe(false);
  for (let i = 0; i < 20; i++) cache.set(newSlot(`w${i}`), 900, true);
  expect(cache.size).toBe(11);
  expect(cache.evictions).toBe(0);
  expect(cache.bytes).toBeLessThanOrEqual(10_000);
});

test("a link whose crawler pages are added keeps its place and its turns: a link read more often outlives one read less", () => {
  const cache = new S3Fifo<Slot>(100 * 1_000);
  const links = Array.from({ length: 80 }, (_, i) => newSlot(`link${i}`));
  for (const link of links) cache.set(link, 1_200, true);
  // The first links grow many times over (a page per variant and version) and are read thrice; the others once.
  for (let round = 0; round < 300; round++) for (let i = 0; i < 10; i++) cache.grow(links[i]!, 1);
  for (let i = 0; i < 80; i++) for (let read = 0; read < (i < 10 ? 3 : 1); read++) cache.get(`link${i}`);
  // One more page puts the cache over its budget: one pass takes a read from each, then the first link read once goes.
  cache.grow(links[79]!, 2_000);
  expect(cache.evictions).toBe(1);
  expect(cache.has("link10")).toBe(false);
  for (let i = 0; i < 10; i++) expect(cache.has(`link${i}`)).toBe(true);
  expect(cache.bytes).toBeLessThanOrEqual(100 * 1_000);
});

test("a value deleted and stored again takes its new place in line: its old place is skipped", () => {
  const cache = new S3Fifo<Slot>(2_000);
  const again = newSlot("again");
  cache.set(again, 100);
  cache.set(newSlot("b"), 100);
  cache.set(newSlot("c"), 100);
  cache.delete("again");
  for (let i = 0; i < 10; i++) cache.set(newSlot(`x${i}`), 100);
  cache.set(again, 100);
  // 13 values; 8 more pass the budget, and two go (the second for the first one's ghost): the oldest, b and c.
  for (let i = 0; i < 8; i++) cache.set(newSlot(`y${i}`), 100);
  expect(cache.evictions).toBe(2);
  expect(cache.has("b") || cache.has("c")).toBe(false);
  expect(cache.peek("again")).toBe(again);
  expect(cache.bytes).toBeLessThanOrEqual(2_000);
});
