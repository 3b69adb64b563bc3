// Sends the outbox's due deliveries, in the delivery worker (delivery.worker.ts, docs/decisions/0026): every
// WEBHOOK_POLL_MS it claims a few (db/*/webhook-queue.ts: one node per
// delivery), signs each (signing.ts) and posts it through the safe fetcher with a per-attempt timeout. A 2xx is
// delivered; anything else is tried again on the backoff schedule (backoff.ts), and an endpoint failing for 3 days
// is disabled with the reason shown to its owner. A process killed mid-attempt leaves the claim to expire: the
// delivery is sent again with the same webhook-id, so receivers deduplicate (at least once, docs/decisions/0019).
import { eq, sql } from "drizzle-orm";
import type { ClaimedDelivery, Db } from "../db/ports.ts";
import { webhookDeliveries, webhookEndpoints } from "../db/tables.ts";
import { AppError } from "../http/errors.ts";
import { DISABLE_AFTER_MS, retryDelay } from "./backoff.ts";
import type { WebhookDeps } from "./deps.ts";
import { signedHeaders } from "./signing.ts";

/** Deliveries claimed (and sent side by side) at a time; their results are recorded in one transaction. */
const CLAIM_LIMIT = 50;
/** Of a receiver's answer, what the deliveries list keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type DeliveryOutcome = "delivered" | "retrying" | "failed";

type Attempt = { delivery: ClaimedDelivery; ok: boolean; last: { lastStatusCode: number | null; lastDurationMs: number; lastResponse: string } };

export type DeliveryOutcomes = Record<DeliveryOutcome, number>;

export class WebhookDeliverer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  /** `recorded`: the outcomes of each batch of attempts, once its results are committed (for /metrics). */
  constructor(
    private readonly deps: WebhookDeps,
    private readonly recorded: (outcomes: DeliveryOutcomes) => void,
  ) {}

  /** Polls every WEBHOOK_POLL_MS (in the delivery worker); the claims keep nodes (and a restart) from doubling up. */
  start(): this {
    const tick = () => {
      this.running = this.deliverDue()
        .then(() => undefined)
        .catch((error) => console.error(`webhook deliveries: ${String(error)}`))
        .finally(() => {
          this.running = null;
          if (!this.stopped) this.timer = setTimeout(tick, this.deps.settings.pollMs);
        });
    };
    this.timer = setTimeout(tick, 0);
    return this;
  }

  /** Stops polling and waits for the attempts under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Claims and sends what is due now, a batch at a time until the due ones are done; the number sent. */
  async deliverDue(): Promise<number> {
    const { timeoutMs } = this.deps.settings;
    let sent = 0;
    for (;;) {
      // The lease outlasts the attempt, its timeout and the recording of its result.
      const claimed = await this.deps.queue.claimDue(this.deps.clock.now(), timeoutMs + 2000, CLAIM_LIMIT);
      if (claimed.length === 0) return sent;
      const results = await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
      const outcomes: DeliveryOutcomes = { delivered: 0, retrying: 0, failed: 0 };
      await this.deps.database.transaction(async (tx) => {
        for (const result of results) outcomes[await this.record(tx, result)]++;
      });
      this.recorded(outcomes);
      sent += claimed.length;
      if (claimed.length < CLAIM_LIMIT || this.stopped) return sent;
    }
  }

  private async attempt(delivery: ClaimedDelivery): Promise<Attempt> {
    const { fetcher, settings, clock } = this.deps;
    const started = performance.now();
    let statusCode: number | null = null;
    let response: string;
    try {
      const answer = await fetcher.post(delivery.url, signedHeaders(delivery, delivery.eventId, clock.now(), delivery.payload), delivery.payload, settings.timeoutMs, RESPONSE_EXCERPT_BYTES);
      statusCode = answer.status;
      response = answer.excerpt;
    } catch (error) {
      response = error instanceof AppError ? error.message : `Could not deliver: ${String(error)}`;
    }
    const durationMs = Math.round(performance.now() - started);
    const ok = statusCode !== null && statusCode >= 200 && statusCode <= 299;
    return { delivery, ok, last: { lastStatusCode: statusCode, lastDurationMs: durationMs, lastResponse: response.slice(0, RESPONSE_EXCERPT_BYTES) } };
  }

  private async record(tx: Db, { delivery, ok, last }: Attempt): Promise<DeliveryOutcome> {
    const now = this.deps.clock.now();
    const attempts = delivery.attempts + 1;
    const delay = ok ? null : retryDelay(attempts, this.deps.settings.retryBaseMs);
    const outcome: DeliveryOutcome = ok ? "delivered" : delay === null ? "failed" : "retrying";
    await tx
      .update(webhookDeliveries)
      .set({ ...last, attempts, status: outcome === "retrying" ? "pending" : outcome, nextAttemptAt: now + (delay ?? 0) })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (ok) {
      if (delivery.failingSince !== null) await tx.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, delivery.endpointId));
      return outcome;
    }
    const failingSince = delivery.failingSince ?? now;
    const disable = now - failingSince >= DISABLE_AFTER_MS;
    const why = last.lastStatusCode === null ? last.lastResponse : `HTTP ${last.lastStatusCode}`;
    await tx
      .update(webhookEndpoints)
      .set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${failingSince})`,
        ...(disable ? { enabled: false, disabledReason: `Disabled on ${new Date(now).toISOString().slice(0, 10)}: every delivery failed for 3 days (last: ${why})` } : {}),
      })
      .where(eq(webhookEndpoints.id, delivery.endpointId));
    return outcome;
  }
}
