// The Worker that owns view writes: its own database connection, so that the request thread never waits on
// the disk or the network. SQLite: a ViewStore that folds rollups every few seconds; PostgreSQL: one
// statement per batch (rows and rollups together).
import { SQL } from "bun";
import { openSqlite } from "../db/sqlite/connection.ts";
import { postgresOptions } from "../db/postgres/options.ts";
import { postgresCycleLock, postgresPruneChunk } from "../db/postgres/view-retention.ts";
import type { ClickOutbox, CycleLock, PruneChunk, ViewWriterTarget } from "../db/ports.ts";
import { postgresClickOutbox } from "../db/postgres/click-outbox.ts";
import { sqliteClickOutbox } from "../db/sqlite/click-outbox.ts";
import { prepareCrawlerFetches } from "../db/sqlite/crawler-fetches.ts";
import { prepareFirstFetches } from "../db/sqlite/first-fetches.ts";
import { announcements, FirstFetches } from "./first-fetches.ts";
import { crawlerFetchesOf, FetchTrimSchedule } from "./crawler-fetches.ts";
import { verifyBatch } from "./crawler-verification.ts";
import { ReverseDnsCheck } from "./reverse-dns.ts";
import { udpResolver } from "../safe-fetch/dns-resolver.ts";
import { ClickEvents } from "./click-events.ts";
import { sqlitePruneChunk } from "../db/sqlite/view-retention.ts";
import type { ViewBatch } from "./view-batch.ts";
import { PgViewStore } from "./view-store.pg.ts";
import { ViewStore } from "./view-store.ts";
import { ViewSpool, type SpoolOutcome } from "./view-spool.ts";
import { RetentionSchedule, type RetentionSettings } from "./view-retention.ts";
import { serveParent } from "../threads/rpc.ts";
import { systemClock } from "../clock.ts";
import { createLogger, type LogFormat, type Logger } from "../observability/log.ts";

declare const self: Worker;

export type ViewWriterProtocol = {
  worker: {
    /** Opens the connection; the recorder starts once this is answered. */
    open: {
      payload: {
        target: ViewWriterTarget;
        retention: RetentionSettings;
        spool: SpoolSettings;
        clickWindowMs: number;
        /** Crawlers' reverse DNS: the servers to ask (empty: the system's); null: off. */
        reverseDns: { dnsServers: string[] } | null;
        logFormat: LogFormat;
      };
      reply: void;
    };
    /**
     * Stores a batch (null: none, only the fold), after every batch sent before it; answers the time it took and
     * whether the batch was stored, spooled for later (views/view-spool.ts) or dropped (the spool is full).
     */
    batch: { payload: { views: ViewBatch | null; fold: boolean }; reply: { ms: number; outcome: SpoolOutcome } };
    /** Finishes the batches sent and closes the connection. */
    close: { payload: void; reply: void };
  };
  parent: {};
  notices: {};
};

/** Where refused batches wait (the data directory), and the most bytes they may take. */
export type SpoolSettings = { path: string; maxBytes: number };

/** With no batch for this long, the SQLite writer folds the rollups in: quiet traffic shows on the dashboard at once. */
const IDLE_FOLD_MS = 200;
/**
 * The SQLite writer's page cache, in KiB (SQLite's default is 2 MiB). Each batch and fold touches pages all over
 * the visitor set, the rollups and link_totals, spread over every link viewed: with a million links those pages no
 * longer fit in 2 MiB and each is read again through the kernel (docs/decisions/0039). Only pages read take memory.
 */
const WRITER_CACHE_KIB = 64 * 1024;

type Writer = {
  /** Stores a batch under its id (`seq`); a batch stored under `seq` already adds nothing. */
  write(seq: number, views: ViewBatch): Promise<void>;
  /** The batch as the spool may keep it: truncated addresses and visitor hashes (views/view-seal.ts). */
  seal(views: ViewBatch): ViewBatch;
  /** Brings the rollups up to date (SQLite; nothing to do on PostgreSQL). */
  fold(): Promise<void>;
  /** Past midnight UTC: deletes the earlier days' visitor hashes and forgets their salts (decision 0010). */
  closeDay(): Promise<void>;
  close(): Promise<void>;
  /** Deletes expired raw views (views/view-retention.ts). */
  pruneChunk: PruneChunk;
  clickOutbox: ClickOutbox;
  retentionLock?: CycleLock;
};

function sqliteWriter(dbPath: string, clicks: ClickEvents, log: Logger): Writer {
  const sqlite = openSqlite(dbPath);
  // The store checks each batch's links once; per-row foreign key checks would double the cost.
  sqlite.run("PRAGMA foreign_keys = OFF");
  sqlite.run(`PRAGMA cache_size = -${WRITER_CACHE_KIB}`);
  const clickOutbox = sqliteClickOutbox(sqlite);
  const fetchRecord = prepareCrawlerFetches(sqlite);
  const trims = new FetchTrimSchedule();
  const firstRecord = prepareFirstFetches(sqlite);
  const firsts = new FirstFetches();
  // The links whose record is due a trim once the next fold has moved their fetches in, and the age cut.
  let due: { linkIds: number[]; before: number | null } = { linkIds: [], before: null };
  const store = new ViewStore(
    sqlite,
    systemClock.now,
    (batch) => {
      const tally = clicks.tally(batch);
      if (tally) clickOutbox.add(tally);
      const rows = crawlerFetchesOf(batch);
      fetchRecord.store(rows);
      // A first fetch is announced with it; one recorded before is remembered (a new one once committed, next time).
      const known = [];
      for (const first of firsts.candidates(rows)) {
        const linkSlug = firstRecord.add(first);
        if (linkSlug === null) known.push(first);
        else for (const event of announcements([{ ...first, linkSlug }])) firstRecord.announce(event);
      }
      firsts.remember(known);
      const now = trims.due(rows);
      due = { linkIds: [...due.linkIds, ...now.linkIds], before: now.before ?? due.before };
    },
    () => {
      fetchRecord.move();
      fetchRecord.trim(due.linkIds, due.before);
      due = { linkIds: [], before: null };
    },
  );
  let idleFold: ReturnType<typeof setTimeout> | null = null;
  const write = (views: ViewBatch | null, fold: boolean, seq?: number) => {
    if (idleFold) clearTimeout(idleFold);
    idleFold = null;
    store.write(views, fold, seq);
    if (store.behind) idleFold = setTimeout(foldNow, IDLE_FOLD_MS);
  };
  const foldNow = () => {
    try {
      write(null, true);
    } catch (error) {
      // The rows are stored; the rollups catch up at the next fold, or at the next start.
      log.error("view rollups were not updated", error);
    }
  };
  return {
    write: async (seq, views) => write(views, false, seq),
    seal: (views) => store.seal(views),
    fold: async () => write(null, true),
    // A fold notices the new day and closes the earlier ones in its transaction.
    closeDay: async () => write(null, true),
    pruneChunk: sqlitePruneChunk(sqlite),
    clickOutbox,
    close: async () => {
      if (idleFold) clearTimeout(idleFold);
      sqlite.close();
    },
  };
}

function postgresWriter(url: string, slot: number, clicks: ClickEvents): Writer {
  const sql = new SQL(postgresOptions(url, 1));
  const store = new PgViewStore(sql, slot, systemClock.now, (batch) => clicks.tally(batch));
  return {
    // One statement per batch, so a refused one wrote nothing and can be sent again (the spool does); one
    // whose commit answer was lost is recognised by its id.
    write: (seq, views) => store.write(views, seq),
    seal: (views) => store.seal(views),
    fold: async () => {},
    closeDay: () => store.closeEarlierDays(),
    close: () => sql.close(),
    pruneChunk: postgresPruneChunk(sql),
    clickOutbox: postgresClickOutbox(sql, slot),
    retentionLock: postgresCycleLock(sql),
  };
}

let writer: Writer | null = null;
let spool: ViewSpool | null = null;
/** The server's log format, known once the worker is opened. */
let log: Logger | null = null;
/**
 * Batch ids: this process's start in microseconds, then one more per batch. Ids grow across restarts, and stay
 * unique while a node writes fewer than 1,000 batches a millisecond.
 */
let nextSeq = systemClock.now() * 1000;
// Batches are written one after another, in the order they came: the recorder relies on it.
let queue: Promise<void> = Promise.resolve();
let retention: RetentionSchedule | null = null;
const clicks = new ClickEvents(systemClock.now);
let clickTimer: ReturnType<typeof setInterval> | null = null;
/** Crawlers' reverse DNS answers, by full address: in this Worker's memory only, never stored. */
let reverseDns: ReverseDnsCheck | null = null;

/** Runs `job` on the queue, after the batches already in it. */
function enqueue<T>(job: () => Promise<T>): Promise<T> {
  const result = queue.then(job);
  queue = result.then(
    () => undefined,
    () => undefined,
  );
  return result;
}

const DAY_MS = 86_400_000;
let dayTimer: ReturnType<typeof setTimeout> | null = null;
/**
 * Closes each day just after midnight UTC even when no view comes: a quiet link's hashes and the day's salt
 * must not outlive the day (a batch after midnight would close it too).
 */
function closeEachDay() {
  dayTimer = setTimeout(
    () => {
      enqueue(() => writer!.closeDay()).catch((error) =>
        log!.error("the day's visitor hashes were not deleted yet", error),
      );
      closeEachDay();
    },
    DAY_MS - (systemClock.now() % DAY_MS) + 1000,
  );
}

serveParent<ViewWriterProtocol>(self, {
  open: async ({ target, retention: settings, spool: spoolSettings, clickWindowMs, reverseDns: dns, logFormat }) => {
    const opening = (log = createLogger(logFormat));
    // A short timeout: a lookup only serves later views, and a slow resolver must not pile them up.
    if (dns) reverseDns = new ReverseDnsCheck(udpResolver(dns.dnsServers, 1000), systemClock.now);
    const opened = (writer =
      target.kind === "sqlite"
        ? sqliteWriter(target.dbPath, clicks, opening)
        : postgresWriter(target.url, target.slot, clicks));
    spool = new ViewSpool(
      spoolSettings.path,
      spoolSettings.maxBytes,
      (seq, views) => opened.write(seq, views),
      opened.seal,
      opening,
    );
    closeEachDay();
    // Each window's link.clicked events are written on the queue, between batches; the first closes the window a
    // crash may have left open.
    const closeWindow = () =>
      enqueue(() => clicks.closeWindow(opened.clickOutbox)).catch((error) =>
        opening.error("link.clicked events not recorded", error),
      );
    await closeWindow();
    clickTimer = setInterval(closeWindow, clickWindowMs);
    retention = new RetentionSchedule(settings, enqueue, writer.pruneChunk, systemClock, opening, writer.retentionLock);
  },
  batch: ({ views, fold }) => {
    if (views) {
      // While the full addresses are here: before the batch is stored, or sealed for the spool without them.
      verifyBatch(views, reverseDns);
      retention?.noteBatch();
    }
    return enqueue(async () => {
      const started = performance.now();
      // Stored views carry their link.clicked counts in their own transaction; spooled ones, when they are stored.
      const outcome: SpoolOutcome = views ? await spool!.write(nextSeq++, views) : "stored";
      // The batch's rows are stored (or spooled) whatever becomes of the fold: it is only reported.
      if (fold) await writer!.fold().catch((error) => log!.error("view rollups were not updated", error));
      // The time rides on the acknowledgement the recorder waits for anyway (its metrics).
      return { ms: performance.now() - started, outcome };
    });
  },
  close: () => {
    if (dayTimer) clearTimeout(dayTimer);
    if (clickTimer) clearInterval(clickTimer);
    retention?.stop();
    return enqueue(async () => {
      // A graceful stop sends the open window's counts.
      if (writer)
        await clicks
          .closeWindow(writer.clickOutbox)
          .catch((error) => log!.error("link.clicked events not recorded", error));
      await spool?.close();
      await writer?.close();
    });
  },
});
