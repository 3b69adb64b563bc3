// The per-process cache in front of the remote upload stores (S3, PostgreSQL): bounded by bytes, least recently
// served out first, entries re-read after their max age, and a deletion here forgets the entry at once.
import { describe, expect, test } from "bun:test";
import { systemClock } from "../../src/clock.ts";
import { HotUploads, type StoredUpload, type UploadBackend } from "../../src/links/images/backends.ts";
import { TestClock } from "../helpers/clock.ts";

class MemoryUploads implements UploadBackend {
  readonly kind = "db";
  readonly objects = new Map<string, Uint8Array<ArrayBuffer>>();
  gets = 0;
  async put(name: string, bytes: Uint8Array) {
    this.objects.set(name, new Uint8Array(bytes));
  }
  async get(name: string) {
    this.gets++;
    return this.objects.get(name) ?? null;
  }
  async delete(name: string) {
    this.objects.delete(name);
  }
  async list(): Promise<StoredUpload[]> {
    return [...this.objects.keys()].map((name) => ({ name, createdAt: 0 }));
  }
}

const kb = (n: number, fill = 1) => new Uint8Array(n * 1024).fill(fill);
const firstByte = (body: unknown) => (body as Uint8Array)[0];

describe("HotUploads", () => {
  test("serves what it holds without asking the store, and never holds more than its byte budget", async () => {
    const store = new MemoryUploads();
    const hot = new HotUploads(store, systemClock, 100 * 1024);
    for (let i = 0; i < 10; i++) await hot.put(`${i}`, kb(20, i));
    expect(hot.heldBytes).toBeLessThanOrEqual(100 * 1024);
    // The five newest are held; the oldest were dropped.
    expect(firstByte(await hot.get("9"))).toBe(9);
    expect(store.gets).toBe(0);
    expect(firstByte(await hot.get("0"))).toBe(0);
    expect(store.gets).toBe(1);
    expect(hot.heldBytes).toBeLessThanOrEqual(100 * 1024);
  });

  test("the least recently served goes first", async () => {
    const store = new MemoryUploads();
    const hot = new HotUploads(store, systemClock, 80 * 1024);
    for (const name of ["a", "b", "c", "d"]) await hot.put(name, kb(20));
    await hot.get("a"); // a is now the most recent: b goes when e arrives
    await hot.put("e", kb(20));
    store.gets = 0;
    for (const name of ["a", "c", "d", "e"]) await hot.get(name);
    expect(store.gets).toBe(0);
    await hot.get("b");
    expect(store.gets).toBe(1);
  });

  test("an image over a quarter of the budget is not held; a deletion is forgotten at once; entries expire", async () => {
    const store = new MemoryUploads();
    const clock = new TestClock();
    const hot = new HotUploads(store, clock, 100 * 1024, 50);
    await hot.put("big", kb(30));
    expect(hot.heldBytes).toBe(0);
    await hot.put("small", kb(10));
    await hot.delete("small");
    expect(await hot.get("small")).toBeNull();
    await hot.put("aging", kb(10));
    // Deleted elsewhere (another node): served from memory until the entry's age runs out.
    store.objects.delete("aging");
    clock.advance(49);
    expect(await hot.get("aging")).not.toBeNull();
    clock.advance(1);
    expect(await hot.get("aging")).toBeNull();
    expect(hot.heldBytes).toBe(0);
  });

  test("a cached copy does not change when the uploader's buffer does", async () => {
    const hot = new HotUploads(new MemoryUploads(), systemClock);
    const bytes = kb(1, 7);
    await hot.put("x", bytes);
    bytes.fill(0);
    expect(firstByte(await hot.get("x"))).toBe(7);
  });
});
