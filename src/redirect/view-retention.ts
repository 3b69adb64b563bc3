// Raw views (truncated address, User-Agent, referrer) are kept VIEW_RETENTION_DAYS, then deleted by the view
// writer Worker while it is idle, in chunks of a thousand rows between batches: never on the /go path, never
// holding the write lock for long. The per-day rollups and the link counters are not touched.
// The views table has no index on time (docs/decisions/0001), but ids grow with time: the oldest rows are the
// first ids. A cycle walks chunks of ids from the start and stops at the first chunk with no expired row.
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";

export const RETENTION_CHUNK_ROWS = 1000;
/** The writer counts as idle once no batch has come for this long. */
const IDLE_MS = 1000;

/** How long raw views are kept (0: forever) and how often a cycle runs. */
export type RetentionSettings = { maxAgeMs: number; everyMs: number };

/**
 * One chunk: among the next RETENTION_CHUNK_ROWS views after `afterId`, deletes those older than `before`.
 * `lastId`: the chunk's last id (null when there were no rows).
 */
export type PruneChunk = (afterId: number, before: number) => Promise<{ lastId: number | null; rows: number; deleted: number }>;

/** SQLite: only rows the rollups already count (at or below the rollup mark) may go. */
export function sqlitePruneChunk(sqlite: Database): PruneChunk {
  const chunk = sqlite.query<{ lastId: number | null; rows: number }, [number]>(
    `SELECT max(id) AS lastId, count(*) AS rows FROM (SELECT id FROM views WHERE id > ?1 AND id <= (SELECT last_view_id FROM view_rollup_mark) ORDER BY id LIMIT ${RETENTION_CHUNK_ROWS})`,
  );
  const remove = sqlite.query(`DELETE FROM views WHERE id > ?1 AND id <= ?2 AND timestamp < ?3`);
  return async (afterId, before) => {
    const { lastId, rows } = chunk.get(afterId)!;
    if (lastId === null) return { lastId, rows, deleted: 0 };
    const deleted = remove.run(afterId, lastId, before).changes;
    return { lastId, rows, deleted };
  };
}

/** PostgreSQL: one statement per chunk. */
export function postgresPruneChunk(sql: SQL): PruneChunk {
  return async (afterId, before) => {
    const [row] = await sql`
      WITH chunk AS (SELECT id FROM views WHERE id > ${afterId} ORDER BY id LIMIT ${RETENTION_CHUNK_ROWS}),
      gone AS (DELETE FROM views WHERE id IN (SELECT id FROM chunk) AND timestamp < to_timestamp(${before} / 1000.0) RETURNING 1)
      SELECT (SELECT max(id) FROM chunk) AS "lastId", (SELECT count(*) FROM chunk) AS rows, (SELECT count(*) FROM gone) AS deleted`;
    return { lastId: row.lastId === null ? null : Number(row.lastId), rows: Number(row.rows), deleted: Number(row.deleted) };
  };
}

/** PostgreSQL: one node per cycle (the lock is the writer connection's, freed if the node dies). */
export function postgresCycleLock(sql: SQL) {
  return {
    acquire: async () => Boolean((await sql`SELECT pg_try_advisory_lock(hashtext('view-retention')) AS locked`)[0].locked),
    release: async () => void (await sql`SELECT pg_advisory_unlock(hashtext('view-retention'))`),
  };
}

export type CycleLock = { acquire(): Promise<boolean>; release(): Promise<void> };

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
      console.error(`old raw views were not deleted this time: ${String(error)}`);
    } finally {
      this.schedule(this.settings.everyMs);
    }
  }

  private async run(): Promise<void> {
    const before = Date.now() - this.settings.maxAgeMs;
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
