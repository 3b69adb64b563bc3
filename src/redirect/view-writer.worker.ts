// The Worker that owns view writes: its own database connection, so that the request thread never waits on
// the disk or the network. SQLite: a ViewStore that folds rollups every few seconds; PostgreSQL: one
// statement per batch (rows and rollups together).
import { SQL } from "bun";
import { openSqlite } from "../db/sqlite/connection.ts";
import { postgresOptions } from "../db/postgres/options.ts";
import { postgresCycleLock, postgresPruneChunk } from "../db/postgres/view-retention.ts";
import type { CycleLock, PruneChunk, ViewWriterTarget } from "../db/ports.ts";
import { sqlitePruneChunk } from "../db/sqlite/view-retention.ts";
import type { ViewBatch } from "./view-batch.ts";
import { PgViewStore } from "./view-store.pg.ts";
import { ViewStore } from "./view-store.ts";
import { RetentionSchedule, type RetentionSettings } from "./view-retention.ts";
import { serveParent } from "../rpc.ts";

declare const self: Worker;

export type ViewWriterProtocol = {
  worker: {
    /** Opens the connection; the recorder starts once this is answered. */
    open: { payload: { target: ViewWriterTarget; retention: RetentionSettings }; reply: void };
    /** Stores a batch (null: none, only the fold), after every batch sent before it; answers the time it took. */
    batch: { payload: { views: ViewBatch | null; fold: boolean }; reply: { ms: number } };
    /** Finishes the batches sent and closes the connection. */
    close: { payload: void; reply: void };
  };
  parent: {};
  notices: {};
};

/** With no batch for this long, the SQLite writer folds the rollups in: quiet traffic shows on the dashboard at once. */
const IDLE_FOLD_MS = 200;

type Writer = {
  write(views: ViewBatch | null, fold: boolean): Promise<void>;
  /** Past midnight UTC: deletes the earlier days' visitor hashes and forgets their salts (decision 0010). */
  closeDay(): Promise<void>;
  close(): Promise<void>;
  /** Deletes expired raw views (redirect/view-retention.ts). */
  pruneChunk: PruneChunk;
  retentionLock?: CycleLock;
};

function sqliteWriter(dbPath: string): Writer {
  const sqlite = openSqlite(dbPath);
  // The store checks each batch's links once; per-row foreign key checks would double the cost.
  sqlite.run("PRAGMA foreign_keys = OFF");
  const store = new ViewStore(sqlite);
  let idleFold: ReturnType<typeof setTimeout> | null = null;
  const write = (views: ViewBatch | null, fold: boolean) => {
    if (idleFold) clearTimeout(idleFold);
    idleFold = null;
    store.write(views, fold);
    if (store.behind) idleFold = setTimeout(foldNow, IDLE_FOLD_MS);
  };
  const foldNow = () => {
    try {
      write(null, true);
    } catch (error) {
      // The rows are stored; the rollups catch up at the next fold, or at the next start.
      console.error(`view rollups were not updated: ${String(error)}`);
    }
  };
  return {
    write: async (views, fold) => write(views, fold),
    // A fold notices the new day and closes the earlier ones in its transaction.
    closeDay: async () => write(null, true),
    pruneChunk: sqlitePruneChunk(sqlite),
    close: async () => {
      if (idleFold) clearTimeout(idleFold);
      sqlite.close();
    },
  };
}

/** A batch the database refused is tried again this many times, waiting twice as long each time from 250 ms. */
const PG_BATCH_RETRIES = 5;

function postgresWriter(url: string, slot: number): Writer {
  const sql = new SQL(postgresOptions(url, 1));
  const store = new PgViewStore(sql, slot);
  return {
    // One statement per batch, so a failed one wrote nothing and can be sent again: a restart or failover of
    // the database costs a few seconds of delay (views keep gathering meanwhile), not the batch. (A commit whose
    // answer was lost would be counted twice: far rarer than a refused batch.)
    write: async (views) => {
      if (!views) return;
      for (let attempt = 0; ; attempt++) {
        try {
          return await store.write(views);
        } catch (error) {
          if (attempt >= PG_BATCH_RETRIES) throw error;
          console.error(`view batch not stored yet (${String(error)}); trying again`);
          await Bun.sleep(250 * 2 ** attempt);
        }
      }
    },
    closeDay: () => store.closeEarlierDays(),
    close: () => sql.close(),
    pruneChunk: postgresPruneChunk(sql),
    retentionLock: postgresCycleLock(sql),
  };
}

let writer: Writer | null = null;
// Batches are written one after another, in the order they came: the recorder relies on it.
let queue: Promise<void> = Promise.resolve();
let retention: RetentionSchedule | null = null;

/** Runs `job` on the queue, after the batches already in it. */
function enqueue<T>(job: () => Promise<T>): Promise<T> {
  const result = queue.then(job);
  queue = result.then(() => undefined, () => undefined);
  return result;
}

const DAY_MS = 86_400_000;
let dayTimer: ReturnType<typeof setTimeout> | null = null;
/**
 * Closes each day just after midnight UTC even when no view comes: a quiet link's hashes and the day's salt
 * must not outlive the day (a batch after midnight would close it too).
 */
function closeEachDay() {
  dayTimer = setTimeout(() => {
    enqueue(() => writer!.closeDay()).catch((error) => console.error(`the day's visitor hashes were not deleted yet: ${String(error)}`));
    closeEachDay();
  }, DAY_MS - (Date.now() % DAY_MS) + 1000);
}

serveParent<ViewWriterProtocol>(self, {
  open: ({ target, retention: settings }) => {
    writer = target.kind === "sqlite" ? sqliteWriter(target.dbPath) : postgresWriter(target.url, target.slot);
    closeEachDay();
    retention = new RetentionSchedule(settings, enqueue, writer.pruneChunk, writer.retentionLock);
  },
  batch: ({ views, fold }) => {
    if (views) retention?.noteBatch();
    return enqueue(async () => {
      const started = performance.now();
      await writer!.write(views, fold);
      // The time rides on the acknowledgement the recorder waits for anyway (its metrics).
      return { ms: performance.now() - started };
    });
  },
  close: () => {
    if (dayTimer) clearTimeout(dayTimer);
    retention?.stop();
    return enqueue(async () => writer?.close());
  },
});
