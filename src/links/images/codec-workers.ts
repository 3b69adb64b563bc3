// The Workers that run the image codecs (decision 0003), and the two limits on a job once it runs (decision 0043):
// a large image gets a Worker of its own, ended with the job, because WebAssembly memory only grows and the
// codecs would otherwise keep what the largest image needed for the life of the process; and a job that is not
// done by its deadline ends the Worker running it, since a codec busy in WebAssembly cannot be interrupted.
import { AppError, unavailable } from "../../http/errors.ts";
import { connectWorker, RpcTimeout, type WorkerClient } from "../../threads/rpc.ts";
import { workerEntry } from "../../workers.ts";
import type { ImageWorkerProtocol } from "./image.worker.ts";
import type { ImageWorkCounts } from "./work-counts.ts";

/**
 * Jobs over this many pixels run on a Worker of their own; smaller ones share one long-lived Worker, whose
 * memory then stays what a 12-megapixel photo needs.
 */
export const RECYCLE_PIXELS = 12_000_000;

/** A job that ran past the deadline (its Worker was ended): the image's fault or the server's, never a crash. */
export class ImageTookTooLong extends AppError {
  constructor(deadlineMs: number) {
    super(
      422,
      `The image took more than ${deadlineMs / 1000} seconds to process; try a smaller or simpler image`,
      "image",
    );
  }
}

/**
 * One codec Worker; `retiring`: takes no new jobs, and is terminated when its last job is answered; `closed`: its
 * thread has ended (and its memory with it).
 */
type Processor = {
  worker: Worker;
  client: WorkerClient<ImageWorkerProtocol>;
  jobs: number;
  retiring: boolean;
  closed: Promise<void>;
};
export type Jobs = ImageWorkerProtocol["worker"];

export class CodecWorkers {
  /** The shared Worker of small jobs. */
  private current: Processor | null = null;
  /** Workers not terminated yet (a retiring one finishes its jobs). */
  private readonly running = new Set<Processor>();
  /** Workers started so far (tests: a large job gets one of its own). */
  started = 0;

  /** `counts`: where a job ended by the deadline is counted. */
  constructor(
    private readonly deadlineMs: number,
    private readonly counts: ImageWorkCounts,
  ) {}

  /** `retiring`: a large job's own Worker. Workers start on the first job, so a server that never receives an image never loads the codecs. */
  private start(retiring: boolean): Processor {
    const worker = new Worker(workerEntry("links/images/image.worker.ts"));
    // A Worker that dies (out of memory, say) fails its own jobs (its client rejects them) and takes no more.
    const closed = new Promise<void>((resolve) => worker.addEventListener("close", () => resolve()));
    const processor: Processor = {
      worker,
      client: connectWorker<ImageWorkerProtocol>(worker, {}, {}, "image worker"),
      jobs: 0,
      retiring,
      closed,
    };
    worker.addEventListener("error", () => this.terminate(processor));
    this.started++;
    this.running.add(processor);
    return processor;
  }

  /** `why`: what its jobs still waiting fail with. */
  private terminate(processor: Processor, why = new Error("the image worker was stopped")): void {
    processor.retiring = true;
    if (this.current === processor) this.current = null;
    processor.worker.terminate();
    processor.client.fail(why);
    this.running.delete(processor);
  }

  /**
   * `own`: the job gets a Worker of its own (a large image), else it shares the long-lived one. The job's bytes are
   * moved to the Worker. Past the deadline the Worker is ended (with any other job on it): an ImageTookTooLong.
   */
  async run<K extends keyof Jobs & string>(
    job: K,
    payload: Jobs[K]["payload"] & { bytes: ArrayBuffer },
    own: boolean,
  ): Promise<Jobs[K]["reply"]> {
    const processor = own ? this.start(true) : (this.current ??= this.start(false));
    processor.jobs++;
    try {
      return await processor.client.call(job, payload, { transfer: [payload.bytes], timeoutMs: this.deadlineMs });
    } catch (error) {
      if (!(error instanceof RpcTimeout)) throw error;
      // Any other image on the shared Worker was not at fault: it may be sent again.
      this.terminate(
        processor,
        unavailable("Another image took too long and its processing was stopped. Please try again."),
      );
      this.counts.count("deadline");
      throw new ImageTookTooLong(this.deadlineMs);
    } finally {
      processor.jobs--;
      if (processor.retiring && processor.jobs === 0) {
        this.terminate(processor);
        // The job's share of the budget is given back only once its memory is.
        await processor.closed;
      }
    }
  }

  /** Workers running now (tests: a deadline or a large job's end leaves none behind). */
  get alive(): number {
    return this.running.size;
  }

  close(): void {
    for (const processor of this.running) this.terminate(processor);
  }
}
