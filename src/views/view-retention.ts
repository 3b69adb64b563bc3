// Raw views (truncated address, User-Agent, referrer) are kept VIEW_RETENTION_DAYS, then deleted by the view
// writer Worker while it is idle, in chunks of a thousand rows between batches: never on the /go path, never
// holding the write lock for long. The per-day rollups and the link counters are not touched; the per-day
// referrer hosts go with the raw views that hold them (the first chunk of a cycle deletes their expired days).
// The views table has no index on time (docs/decisions/0001), but ids grow with time: the oldest rows are the
// first ids. A cycle walks chunks of ids from the start and stops at the first chunk with no expired row.
import { RETENTION_CHUNK_ROWS } from "../db/view-retention-chunk.ts";
import type { CycleLock, PruneChunk } from "../db/ports.ts";
import type { Clock } from "../clock.ts";
import type { Logger } from "../observability/log.ts";

/** The writer counts as idle once no batch has come for this long. */
const IDLE_MS = 1000;

/** How long raw views are kept (0: forever) and how often a cycle runs. */
export type RetentionSettings = { maxAgeMs: number; everyMs: number };

/**
 * Runs a cycle every `everyMs` once the writer is idle. `enqueue` puts each chunk on the writer's queue, so
 * chunks and batches never overlap; a batch arriving mid-cycle ends the cycle (the next one resumes).
 */
export class RetentionSchedule {
  private lastBatchAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly settings: RetentionSettings,
    private readonly enqueue: <T>(job: () => Promise<T>) => Promise<T>,
    private readonly chunk: PruneChunk,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly lock: CycleLock | null = null,
  ) {
    if (settings.maxAgeMs > 0) this.schedule(settings.everyMs);
  }

  /** A batch of views arrived: the writer is busy. */
  noteBatch(): void {
    this.lastBatchAt = performance.now();
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.cycle(), delayMs);
  }

  private async cycle(): Promise<void> {
    const quietFor = performance.now() - this.lastBatchAt;
    if (quietFor < IDLE_MS) return this.schedule(IDLE_MS - quietFor);
    try {
      if (this.lock && !(await this.enqueue(() => this.lock!.acquire()))) return;
      try {
        await this.run();
      } finally {
        if (this.lock) await this.enqueue(() => this.lock!.release());
      }
    } catch (error) {
      this.log.error("old raw views were not deleted this time", error);
    } finally {
      this.schedule(this.settings.everyMs);
    }
  }

  private async run(): Promise<void> {
    const before = this.clock.now() - this.settings.maxAgeMs;
    let afterId = 0;
    while (!this.stopped && performance.now() - this.lastBatchAt >= IDLE_MS) {
      const { lastId, rows, deleted } = await this.enqueue(() => this.chunk(afterId, before));
      if (lastId === null || deleted === 0 || rows < RETENTION_CHUNK_ROWS) return;
      afterId = lastId;
    }
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }
}
