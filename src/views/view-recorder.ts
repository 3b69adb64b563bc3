// Buffers counted views in memory and hands them to the writer Worker when the flush window ends, as a group
// commit: while the Worker is still writing the previous batch, views keep gathering and go over together the
// moment it is done (or at the size cap). Under load batches grow, and a bigger batch costs less per view;
// when quiet, a view is stored within the window.
// On stop the last buffer is handed over and the Worker's commit awaited, so a graceful stop loses nothing;
// a kill -9 loses at most the open buffer plus the batch being written. A batch the database refuses waits in
// the Worker's spool file (views/view-spool.ts) until it is stored, also across restarts.
import type { ViewWriterTarget } from "../db/ports.ts";
import type { LogFormat, Logger } from "../observability/log.ts";
import { connectWorker, started, type WorkerClient } from "../threads/rpc.ts";
import { join } from "node:path";
import { workerEntry } from "../workers.ts";
import { ViewBatchBuilder, type ViewRecord } from "./view-batch.ts";
import type { RetentionSettings } from "./view-retention.ts";
import type { SpoolOutcome } from "./view-spool.ts";
import type { ViewWriterProtocol } from "./view-writer.worker.ts";

/** What the recorder and its Worker did with views, read by the metrics at scrape time (nothing here is per view). */
export type ViewTotals = {
  /** Views handed to the Worker (the buffered ones are on top of these). */
  handedOver: number;
  /** Views the Worker stored or spooled for later (views/view-spool.ts). */
  written: number;
  /** Views the Worker could not store or spool (the spool is full), or recorded after close. */
  dropped: number;
  /** Called once per stored batch with its size and the Worker's time on it. */
  onBatch: ((views: number, seconds: number) => void) | null;
};

export class ViewRecorder {
  readonly totals: ViewTotals = { handedOver: 0, written: 0, dropped: 0, onBatch: null };
  private readonly buffer = new ViewBatchBuilder();
  private buffered = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** The window ended while the Worker was busy: hand over as soon as it reports its commit. */
  private windowEnded = false;
  /** Batches handed over and not yet answered. */
  private inFlight = 0;
  /** The Worker handles batches in order, so the newest batch's commit means all are committed. */
  private latestCommit: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly writer: WorkerClient<ViewWriterProtocol>,
    private readonly flushMs: number,
    private readonly batchMax: number,
    private readonly log: Logger,
  ) {}

  /** `spool`: the data directory, where refused batches wait, and the most bytes they may take (VIEW_SPOOL_MAX_BYTES). */
  static async start(
    target: ViewWriterTarget,
    options: {
      flushMs: number;
      batchMax: number;
      retention: RetentionSettings;
      spool: { dir: string; maxBytes: number };
      clickWindowMs: number;
      /** Crawlers' reverse DNS (views/reverse-dns.ts): the servers to ask; null: off. */
      reverseDns: { dnsServers: string[] } | null;
      log: Logger;
      logFormat: LogFormat;
    },
  ): Promise<ViewRecorder> {
    const worker = new Worker(workerEntry("views/view-writer.worker.ts"));
    const writer = connectWorker<ViewWriterProtocol>(worker, {}, {}, "view writer");
    // One file per node slot: nodes that share a data directory never replay each other's batches.
    const spool = {
      path: join(options.spool.dir, `view-spool-${target.kind === "postgres" ? target.slot : 0}.bin`),
      maxBytes: options.spool.maxBytes,
    };
    await started(
      worker,
      writer.call("open", {
        target,
        retention: options.retention,
        spool,
        clickWindowMs: options.clickWindowMs,
        reverseDns: options.reverseDns,
        logFormat: options.logFormat,
      }),
      "view writer",
    );
    return new ViewRecorder(worker, writer, options.flushMs, options.batchMax, options.log);
  }

  /** Views waiting for the window to end. */
  get waiting(): number {
    return this.buffered;
  }

  record(view: ViewRecord): void {
    if (this.closed) {
      this.totals.dropped++;
      return;
    }
    this.buffered = this.buffer.add(view);
    if (this.buffered >= this.batchMax) this.handOver(false);
    else if (!this.timer && !this.windowEnded) this.timer = setTimeout(() => this.endWindow(), this.flushMs);
  }

  private endWindow() {
    this.timer = null;
    if (this.inFlight > 0) this.windowEnded = true;
    else this.handOver(false);
  }

  /**
   * Hands the buffer to the Worker and has it bring the rollups up to date; resolves once every view
   * recorded so far is stored and counted.
   */
  flush(): Promise<void> {
    this.handOver(true);
    return this.latestCommit;
  }

  /** Posts what is buffered (with `fold`, also when nothing is) to the Worker. */
  private handOver(fold: boolean) {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.windowEnded = false;
    if (this.buffered === 0 && !fold) return;
    const views = this.buffered;
    this.totals.handedOver += views;
    let stored: Promise<{ ms: number; outcome: SpoolOutcome }>;
    if (views > 0) {
      const { batch, transfer } = this.buffer.take();
      stored = this.writer.call("batch", { views: batch, fold }, { transfer });
      this.buffered = 0;
    } else stored = this.writer.call("batch", { views: null, fold });
    this.inFlight++;
    this.latestCommit = stored.then(
      ({ ms, outcome }) => {
        if (outcome === "dropped") this.totals.dropped += views;
        else this.totals.written += views;
        if (views > 0) this.totals.onBatch?.(views, ms / 1000);
        this.answered();
      },
      (error: Error) => {
        this.log.error("a view batch was not stored", error);
        this.totals.dropped += views;
        this.answered();
      },
    );
  }

  private answered() {
    this.inFlight--;
    if (this.windowEnded && this.inFlight === 0) this.handOver(false);
  }

  /** Stops accepting views, stores what is buffered and closes the Worker's connection. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.writer.call("close", undefined);
    this.worker.terminate();
  }
}
