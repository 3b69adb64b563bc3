// The request thread's handle on the delivery Worker (delivery.worker.ts): starts it, adds up the outcomes it
// reports for /metrics, starts another if it dies, and stops it. Nothing here runs per request or per click.
import type { Clock } from "../clock.ts";
import type { Config } from "../config/config.ts";
import type { Logger } from "../observability/log.ts";
import { connectWorker, started, type WorkerClient } from "../threads/rpc.ts";
import { workerEntry } from "../workers.ts";
import type { DeliveryOutcomes } from "./deliverer.ts";
import type { DeliveryWorkerProtocol } from "./delivery.worker.ts";

/** How long a stopping worker may take to finish its attempts (each is bounded by WEBHOOK_TIMEOUT_MS). */
const CLOSE_GRACE_MS = 10_000;

export class DeliveryWorker {
  /** This node's attempts by outcome since start (/metrics). */
  readonly outcomes: DeliveryOutcomes = { delivered: 0, retrying: 0, failed: 0 };
  private worker: Worker | null = null;
  private client: WorkerClient<DeliveryWorkerProtocol> | null = null;
  private driver: ReturnType<typeof setTimeout> | null = null;
  private stopping = false;
  /** Who waits for a driven poll that starts after they asked (nextDrivenPoll). */
  private pollWaiters: Array<() => void> = [];

  /** `drivenBy`: a test's clock, which the worker cannot read: this thread then asks it to deliver every poll. */
  private constructor(
    private readonly config: Config,
    private readonly drivenBy: Clock | null,
    private readonly log: Logger,
  ) {}

  static async start(config: Config, drivenBy: Clock | null, log: Logger): Promise<DeliveryWorker> {
    const handle = new DeliveryWorker(config, drivenBy, log);
    await handle.open();
    if (drivenBy) handle.drive();
    return handle;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.driver) clearTimeout(this.driver);
    const { worker, client } = this;
    if (!worker || !client) return;
    await client.call("close", undefined, { timeoutMs: CLOSE_GRACE_MS }).catch(() => undefined);
    worker.terminate();
  }

  private async open(): Promise<void> {
    const worker = new Worker(workerEntry("webhooks/delivery.worker.ts"));
    const client = connectWorker<DeliveryWorkerProtocol>(
      worker,
      {},
      {
        recorded: (outcomes) => {
          for (const outcome of ["delivered", "retrying", "failed"] as const)
            this.outcomes[outcome] += outcomes[outcome];
        },
      },
      "webhook delivery worker",
    );
    await started(
      worker,
      client.call("start", { config: this.config, polling: this.drivenBy === null }),
      "webhook delivery worker",
    );
    this.worker = worker;
    this.client = client;
    const lost = (reason: string) => {
      if (this.worker !== worker) return;
      worker.terminate();
      if (this.stopping) return;
      // What it had claimed is due again when the claims lapse (deliverer.ts): another worker sends it.
      this.log.warn(`the webhook delivery worker stopped (${reason}); starting another`);
      this.open().catch((error) => this.log.error("the webhook delivery worker could not be started", error));
    };
    worker.addEventListener("error", (event) => lost(event.message));
    worker.addEventListener("close", () => lost("it exited"));
  }

  /**
   * Resolves when a driven poll that starts after this call has ended: a test that moves its clock waits for it, so
   * that no poll begun at the earlier time claims what the test writes next.
   */
  nextDrivenPoll(): Promise<void> {
    return new Promise((resolve) => this.pollWaiters.push(resolve));
  }

  /** One `deliverDue` at the driving clock's time every WEBHOOK_POLL_MS, one at a time. */
  private drive(): void {
    const tick = () => {
      const waiters = this.pollWaiters.splice(0);
      this.client!.call("deliverDue", { now: this.drivenBy!.now() })
        .catch((error) => this.log.error("webhook deliveries", error))
        .finally(() => {
          for (const resolve of waiters) resolve();
          if (!this.stopping) this.driver = setTimeout(tick, this.config.webhooks.pollMs);
        });
    };
    this.driver = setTimeout(tick, 0);
  }
}
