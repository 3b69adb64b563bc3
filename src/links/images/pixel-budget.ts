// The process-wide budget of image work (docs/decisions/0043): decoding takes memory in proportion to pixels, so
// jobs hold their decoded size of the budget while they run and wait their turn when it is spent. Small jobs (at
// most `smallPixels`, the size the long-lived codec Worker takes) have their own slice, so that a card photo never
// waits behind a queue of 36-megapixel uploads, and large ones have the rest, in order, so that small ones can
// never starve them. More than `queue` jobs waiting: the newcomer is turned away (a 503 with Retry-After).
import { unavailable } from "../../http/errors.ts";
import type { ImageWorkCounts } from "./work-counts.ts";

/** A job's share of the budget; released once, when the job is answered or given up. */
export type Lease = { release(): void };

/** Where a job waits for its share: this thread's budget, or (in an app worker) the request thread's. */
export type PixelGate = { acquire(pixels: number): Promise<Lease> };

export type BudgetSettings = { pixels: number; smallPixels: number; queue: number };

type Lane = "small" | "large";
type Waiter = { pixels: number; lane: Lane; grant: (lease: Lease) => void };

export const QUEUE_FULL_MESSAGE = "Too many images are being processed right now. Please try again in a moment.";

export class PixelBudget implements PixelGate {
  private readonly used: Record<Lane, number> = { small: 0, large: 0 };
  private readonly waiting: Waiter[] = [];

  /** `counts`: where a job turned away is counted. */
  constructor(
    private readonly settings: BudgetSettings,
    private readonly counts: ImageWorkCounts,
  ) {}

  /** Jobs waiting for their share now (tests, metrics). */
  get queued(): number {
    return this.waiting.length;
  }

  /** Pixels the running jobs hold now (metrics). */
  get pixelsInUse(): number {
    return this.used.small + this.used.large;
  }

  /** The job's lease once its share is free; null at once when it would have to wait and the queue is full. */
  enter(pixels: number): Promise<Lease> | null {
    const lane: Lane = pixels <= this.settings.smallPixels ? "small" : "large";
    let granted: Lease | null = null;
    const waiter: Waiter = { pixels, lane, grant: (lease) => (granted = lease) };
    this.waiting.push(waiter);
    this.pump();
    if (granted) return Promise.resolve(granted);
    if (this.waiting.length > this.settings.queue) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      this.counts.count("queue-full");
      return null;
    }
    return new Promise((resolve) => (waiter.grant = resolve));
  }

  async acquire(pixels: number): Promise<Lease> {
    const lease = this.enter(pixels);
    if (!lease) throw unavailable(QUEUE_FULL_MESSAGE);
    return lease;
  }

  private capacity(lane: Lane): number {
    return lane === "small" ? this.settings.smallPixels : this.settings.pixels - this.settings.smallPixels;
  }

  /** Grants, in order within each lane, every waiting job whose share is free; a lane's first blocked job blocks the rest of that lane. */
  private pump(): void {
    const blocked: Record<Lane, boolean> = { small: false, large: false };
    for (let i = 0; i < this.waiting.length; ) {
      const waiter = this.waiting[i]!;
      // A job larger than its lane (never sent: the header check caps images) would otherwise wait forever.
      const share = Math.min(waiter.pixels, this.capacity(waiter.lane));
      if (blocked[waiter.lane] || this.used[waiter.lane] + share > this.capacity(waiter.lane)) {
        blocked[waiter.lane] = true;
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.used[waiter.lane] += share;
      let released = false;
      waiter.grant({
        release: () => {
          if (released) return;
          released = true;
          this.used[waiter.lane] -= share;
          this.pump();
        },
      });
    }
  }
}
