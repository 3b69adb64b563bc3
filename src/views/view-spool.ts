// What the view writer does with a batch the database refuses (docs/decisions/0020-view-spool.md): the batch goes
// to an append-only file in the data directory, fsynced per batch, and a drainer stores the file's batches in
// order, retrying with capped backoff for as long as it takes, also after a restart (the file is read at open).
// While the file holds batches, new ones go after them, so views are stored in the order they came. Each batch
// carries its sequence number, which the store records in the batch's own transaction: a batch stored but whose
// answer was lost (or a replay cut short by a kill -9) is recognised when sent again, never counted twice.
// If the file cannot be written (a full disk), batches wait in memory behind it, within the same size limit.
// A batch is sealed before it is kept (views/view-seal.ts): the file holds no full client address.
import { closeSync, existsSync, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, writeSync } from "node:fs";
import { NUMERIC_COLUMNS, type ViewBatch } from "./view-batch.ts";
import type { SealBatch } from "./view-seal.ts";
import type { Logger } from "../observability/log.ts";

/** Stores one batch under its sequence number; a batch already stored under it is skipped, not counted again. */
export type StoreBatch = (seq: number, batch: ViewBatch) => Promise<void>;
/** What became of a batch handed to the spool: stored now, kept for later, or dropped (the spool is full). */
export type SpoolOutcome = "stored" | "spooled" | "dropped";

/** How long a stored batch's id is remembered: far longer than any batch waits in the spool. */
export const BATCH_ID_MEMORY_MS = 30 * 86_400_000;
const FIRST_RETRY_MS = 250;
/** The longest wait between two tries: a database back after an outage is noticed within this. */
const LONGEST_RETRY_MS = 5000;
const HEADER_BYTES = 4;

type Entry = { seq: number; batch: ViewBatch };

function encode(entry: Entry): Uint8Array {
  const b = entry.batch;
  const columns: Record<string, number[]> = Object.fromEntries(
    NUMERIC_COLUMNS.map((name) => [name, Array.from(b[name].subarray(0, b.size))]),
  );
  if (b.visitor) columns.visitor = Array.from(b.visitor.subarray(0, b.size));
  const json = new TextEncoder().encode(JSON.stringify({ seq: entry.seq, size: b.size, strings: b.strings, columns }));
  const record = new Uint8Array(HEADER_BYTES + json.length);
  new DataView(record.buffer).setUint32(0, json.length);
  record.set(json, HEADER_BYTES);
  return record;
}

function decode(json: Uint8Array): Entry {
  const { seq, size, strings, columns } = JSON.parse(new TextDecoder().decode(json)) as {
    seq: number;
    size: number;
    strings: string[];
    columns: Record<string, number[]>;
  };
  const batch: ViewBatch = {
    size,
    strings,
    linkId: Float64Array.from(columns.linkId!),
    userId: Float64Array.from(columns.userId!),
    at: Float64Array.from(columns.at!),
    isBot: Uint8Array.from(columns.isBot!),
    scan: Uint8Array.from(columns.scan!),
    platform: Int32Array.from(columns.platform!),
    address: Int32Array.from(columns.address!),
    userAgent: Int32Array.from(columns.userAgent!),
    attribution: Int32Array.from(columns.attribution!),
    // A record spooled before crawler fetches were recorded has none of these: no rendition, no verification.
    version: columns.version ? Int32Array.from(columns.version) : new Int32Array(size).fill(1),
    rendition: columns.rendition ? Int32Array.from(columns.rendition) : new Int32Array(size).fill(-1),
    status: columns.status ? Uint16Array.from(columns.status) : new Uint16Array(size),
    bytes: columns.bytes ? Int32Array.from(columns.bytes) : new Int32Array(size),
    ms: columns.ms ? Float32Array.from(columns.ms) : new Float32Array(size),
    verification: columns.verification ? Uint8Array.from(columns.verification) : new Uint8Array(size),
    // A record spooled before batches were sealed has none: the store hashes its full addresses as it always did.
    ...(columns.visitor ? { visitor: Float64Array.from(columns.visitor) } : {}),
  };
  return { seq, batch };
}

export class ViewSpool {
  private readonly fd: number;
  /** Bytes of whole records in the file; a record torn by a crash is cut off at open. */
  private fileBytes = 0;
  /** How far into the file the drainer has stored. */
  private storedBytes = 0;
  /** Batches the file could not take, in order after the file's. */
  private readonly memory: Array<{ entry: Entry; bytes: number }> = [];
  private memoryBytes = 0;
  private draining: Promise<void> | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  /** Views dropped because the spool was full (the writer reports them to the recorder's metrics). */
  dropped = 0;

  constructor(
    readonly path: string,
    private readonly maxBytes: number,
    private readonly store: StoreBatch,
    private readonly seal: SealBatch,
    private readonly log: Logger,
  ) {
    const existed = existsSync(path);
    this.fd = openSync(path, "a+", 0o600);
    this.fileBytes = existed ? this.wholeRecordBytes() : 0;
    if (this.fileBytes < fstatSync(this.fd).size) ftruncateSync(this.fd, this.fileBytes);
    if (this.fileBytes > 0) {
      log.warn(`view spool: ${path} holds views the database has not stored yet; storing them now`);
      this.drain();
    }
  }

  /** Batches waiting to be stored: while there are, new ones queue behind them. */
  get waiting(): boolean {
    return this.fileBytes > this.storedBytes || this.memory.length > 0;
  }

  /** Stores the batch, or keeps it for the drainer when the database refuses it or others wait before it. */
  async write(seq: number, batch: ViewBatch): Promise<SpoolOutcome> {
    if (!this.waiting) {
      try {
        await this.store(seq, batch);
        return "stored";
      } catch (error) {
        this.log.warn(`view batch ${seq} not stored yet (${String(error)}); spooled to ${this.path}`);
      }
    }
    return this.keep({ seq, batch: this.seal(batch) });
  }

  private keep(entry: Entry): SpoolOutcome {
    const record = encode(entry);
    if (this.fileBytes + this.memoryBytes + record.length > this.maxBytes) {
      this.dropped += entry.batch.size;
      this.log.warn(`view spool full (VIEW_SPOOL_MAX_BYTES=${this.maxBytes}): ${entry.batch.size} views dropped`);
      return "dropped";
    }
    if (this.memory.length === 0) {
      try {
        this.append(record);
        this.drain();
        return "spooled";
      } catch (error) {
        // The batch waits in memory, and so do the ones after it.
        this.log.warn(`view spool ${this.path} cannot be written (${String(error)}); views wait in memory`);
      }
    }
    this.memory.push({ entry, bytes: record.length });
    this.memoryBytes += record.length;
    this.drain();
    return "spooled";
  }

  /**
   * Writes a record at the end of the whole records, fsynced. On a full disk a part may be written before the
   * error (or a short count): that part is cut off, and the next record is written at the same place, never
   * behind a gap (the file's offset moved with the part).
   */
  private append(record: Uint8Array): void {
    try {
      if (writeSync(this.fd, record, 0, record.length, this.fileBytes) !== record.length)
        throw new Error("a short write (the disk is full)");
      fsyncSync(this.fd);
    } catch (error) {
      ftruncateSync(this.fd, this.fileBytes);
      throw error;
    }
    this.fileBytes += record.length;
  }

  /** The length of the file's leading whole records. */
  private wholeRecordBytes(): number {
    const size = fstatSync(this.fd).size;
    const header = new Uint8Array(HEADER_BYTES);
    let at = 0;
    while (at + HEADER_BYTES <= size) {
      readSync(this.fd, header, 0, HEADER_BYTES, at);
      const length = new DataView(header.buffer).getUint32(0);
      if (at + HEADER_BYTES + length > size) break;
      at += HEADER_BYTES + length;
    }
    return at;
  }

  private readEntry(at: number): { entry: Entry; bytes: number } {
    const header = new Uint8Array(HEADER_BYTES);
    readSync(this.fd, header, 0, HEADER_BYTES, at);
    const json = new Uint8Array(new DataView(header.buffer).getUint32(0));
    readSync(this.fd, json, 0, json.length, at + HEADER_BYTES);
    return { entry: decode(json), bytes: HEADER_BYTES + json.length };
  }

  private drain(): void {
    this.draining ??= this.drainAll().finally(() => (this.draining = null));
  }

  private async drainAll(): Promise<void> {
    while (!this.stopped && this.waiting) {
      if (this.fileBytes > this.storedBytes) {
        const { entry, bytes } = this.readEntry(this.storedBytes);
        if (!(await this.storePatiently(entry))) return;
        this.storedBytes += bytes;
        // Checked and emptied without a pause between, so no batch is appended in between.
        if (this.storedBytes === this.fileBytes) this.emptyFile();
      } else {
        const first = this.memory[0]!;
        if (!(await this.storePatiently(first.entry))) return;
        this.memory.shift();
        this.memoryBytes -= first.bytes;
      }
    }
  }

  private emptyFile(): void {
    ftruncateSync(this.fd, 0);
    fsyncSync(this.fd);
    this.fileBytes = this.storedBytes = 0;
    this.log.info("view spool: every spooled view is stored");
  }

  /** Tries until the batch is stored (true) or the spool is closed (false). */
  private async storePatiently(entry: Entry): Promise<boolean> {
    for (let delay = FIRST_RETRY_MS; !this.stopped; delay = Math.min(delay * 2, LONGEST_RETRY_MS)) {
      try {
        await this.store(entry.seq, entry.batch);
        return true;
      } catch (error) {
        this.log.warn(`spooled view batch ${entry.seq} not stored yet (${String(error)}); trying again in ${delay} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
      }
    }
    return false;
  }

  /**
   * Stops the drainer; what is still spooled is stored after the next start. What waits in memory is appended to
   * the file now (behind the file's records, so the order holds) if the disk has room again; only what still does
   * not fit is lost, and said so.
   */
  async close(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.draining;
    while (this.memory.length > 0) {
      const { entry } = this.memory[0]!;
      try {
        this.append(encode(entry));
        this.memory.shift();
      } catch (error) {
        this.log.warn(
          `view spool: ${this.memory.reduce((n, m) => n + m.entry.batch.size, 0)} views that the full disk kept in memory are lost (${String(error)})`,
        );
        break;
      }
    }
    closeSync(this.fd);
  }
}
