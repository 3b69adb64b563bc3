// Sends the outbox's due deliveries, in the delivery worker (delivery.worker.ts, docs/decisions/0026): every
// WEBHOOK_POLL_MS it claims what is due (db/*/webhook-queue.ts: one node per delivery), endpoint by endpoint: each
// endpoint with due deliveries gets a lane of its own, a few attempts side by side, and is not claimed again until
// its lane is done, so an endpoint that hangs holds only its own lane (docs/decisions/0045). Each attempt is
// signed (signing.ts) and posted through the safe fetcher with a per-attempt timeout. A 2xx is delivered; anything
// else is tried again on the backoff schedule (backoff.ts), and an endpoint failing for 3 days is disabled with the
// reason shown to its owner. A process killed mid-attempt leaves the claim to expire: the delivery is sent again
// with the same webhook-id, so receivers deduplicate (at least once, docs/decisions/0019).
import { and, eq, sql } from "drizzle-orm";
import type { ClaimedDelivery, Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { AppError } from "../http/errors.ts";
import { DISABLE_AFTER_MS, retryDelay } from "./backoff.ts";
import type { WebhookDeps } from "./deps.ts";
import { signedHeaders } from "./signing.ts";
import { trimBacklogs } from "./trim-backlogs.ts";

/** Deliveries claimed at a time, over all endpoints. */
const CLAIM_LIMIT = 50;
/** One endpoint's deliveries sent side by side in its lane; their results are recorded in one transaction. */
const PER_ENDPOINT = 5;
/** Endpoints with a lane at once: beyond that, the next poll claims for those whose lanes have ended. */
const MAX_LANES = 200;
/** Of a receiver's answer, what the deliveries list keeps. */
export const RESPONSE_EXCERPT_BYTES = 1024;

export type DeliveryOutcome = "delivered" | "retrying" | "failed";

type Attempt = {
  delivery: ClaimedDelivery;
  ok: boolean;
  last: { lastStatusCode: number | null; lastDurationMs: number; lastResponse: string };
};

export type DeliveryOutcomes = Record<DeliveryOutcome, number>;

export class WebhookDeliverer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private running: Promise<unknown> | null = null;
  private stopped = false;
  /** The lanes under way, by endpoint id. */
  private readonly lanes = new Map<number, Promise<void>>();
  /** The claiming round under way, and whether another was asked for meanwhile (a lane ended, a poll came). */
  private claiming: Promise<number> | null = null;
  private again = false;

  /** `recorded`: the outcomes of each lane's attempts (and of trimmed backlogs), once committed (for /metrics). */
  constructor(
    private readonly deps: WebhookDeps,
    private readonly recorded: (outcomes: DeliveryOutcomes) => void,
  ) {}

  /** Polls every WEBHOOK_POLL_MS (in the delivery worker); the claims keep nodes (and a restart) from doubling up. */
  start(): this {
    const tick = () => {
      this.running = this.deliverDue()
        .catch((error) => this.deps.log.error("webhook deliveries", error))
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
    await this.claiming;
    await Promise.all(this.lanes.values());
  }

  /**
   * Claims what is due now and starts a lane for each endpoint claimed, without waiting for the lanes: the number
   * of deliveries started. Rounds never overlap; one asked for during another runs after it.
   */
  deliverDue(): Promise<number> {
    if (this.claiming) {
      this.again = true;
      return this.claiming;
    }
    const round = async () => {
      let started = 0;
      do {
        this.again = false;
        started += await this.claimRound();
      } while (this.again && !this.stopped);
      return started;
    };
    this.claiming = round().finally(() => (this.claiming = null));
    return this.claiming;
  }

  private async claimRound(): Promise<number> {
    const { timeoutMs, maxPending } = this.deps.settings;
    const trimmed = await trimBacklogs(this.deps.database.db, maxPending, this.deps.clock.now());
    if (trimmed > 0) this.recorded({ delivered: 0, retrying: 0, failed: trimmed });
    let started = 0;
    while (!this.stopped && this.lanes.size < MAX_LANES) {
      // The lease outlasts the attempt, its timeout and the recording of its result.
      const limit = Math.min(CLAIM_LIMIT, (MAX_LANES - this.lanes.size) * PER_ENDPOINT);
      const now = this.deps.clock.now();
      const leaseMs = timeoutMs + 2000;
      const claimed = await this.deps.queue.claimDue(now, leaseMs, {
        limit,
        perEndpoint: PER_ENDPOINT,
        skip: [...this.lanes.keys()],
      });
      if (claimed.length === 0) break;
      const byEndpoint = Map.groupBy(claimed, (delivery) => delivery.endpointId);
      for (const [endpointId, deliveries] of byEndpoint)
        this.lanes.set(endpointId, this.lane(endpointId, deliveries, now + leaseMs));
      started += claimed.length;
    }
    return started;
  }

  /**
   * One endpoint's claimed deliveries, sent side by side and recorded together; then its next ones are claimed.
   * `leasedUntil`: the claim's lease (their next_attempt_at), which tells whether a delivery is still this claim's.
   */
  private async lane(endpointId: number, deliveries: ClaimedDelivery[], leasedUntil: number): Promise<void> {
    try {
      const results = await Promise.all(deliveries.map((delivery) => this.attempt(delivery)));
      const outcomes: DeliveryOutcomes = { delivered: 0, retrying: 0, failed: 0 };
      await this.deps.database.transaction(async (tx) => {
        for (const result of results) outcomes[await this.record(tx, result, leasedUntil)]++;
      });
      this.recorded(outcomes);
    } catch (error) {
      // Unrecorded attempts are due again when their claims lapse.
      this.deps.log.error("webhook deliveries", error);
    } finally {
      this.lanes.delete(endpointId);
    }
    // A full lane may have left more due at this endpoint: claim them now rather than at the next poll.
    if (deliveries.length === PER_ENDPOINT && !this.stopped)
      this.deliverDue().catch((error) => this.deps.log.error("webhook deliveries", error));
  }

  private async attempt(delivery: ClaimedDelivery): Promise<Attempt> {
    const { fetcher, settings, clock } = this.deps;
    const started = performance.now();
    let statusCode: number | null = null;
    let response: string;
    try {
      const answer = await fetcher.post(
        delivery.url,
        signedHeaders(delivery, delivery.eventId, clock.now(), delivery.payload),
        delivery.payload,
        settings.timeoutMs,
        RESPONSE_EXCERPT_BYTES,
      );
      statusCode = answer.status;
      response = answer.excerpt;
    } catch (error) {
      response = error instanceof AppError ? error.message : `Could not deliver: ${String(error)}`;
    }
    const durationMs = Math.round(performance.now() - started);
    const ok = statusCode !== null && statusCode >= 200 && statusCode <= 299;
    return {
      delivery,
      ok,
      last: {
        lastStatusCode: statusCode,
        lastDurationMs: durationMs,
        lastResponse: response.slice(0, RESPONSE_EXCERPT_BYTES),
      },
    };
  }

  private async record(tx: Db, { delivery, ok, last }: Attempt, leasedUntil: number): Promise<DeliveryOutcome> {
    const { webhookDeliveries, webhookEndpoints } = tablesOf(tx);
    const now = this.deps.clock.now();
    const attempts = delivery.attempts + 1;
    const delay = ok ? null : retryDelay(attempts, this.deps.settings.retryBaseMs);
    const outcome: DeliveryOutcome = ok ? "delivered" : delay === null ? "failed" : "retrying";
    await tx
      .update(webhookDeliveries)
      .set({
        ...last,
        attempts,
        status: outcome === "retrying" ? "pending" : outcome,
        nextAttemptAt: now + (delay ?? 0),
      })
      // Only while the claim holds it: a resend asked for during the attempt (resend.ts) made it due again, and a
      // claim that lapsed was taken by another; either way this attempt's result must not undo that.
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.nextAttemptAt, leasedUntil)));
    if (ok) {
      if (delivery.failingSince !== null)
        await tx
          .update(webhookEndpoints)
          .set({ failingSince: null })
          .where(eq(webhookEndpoints.id, delivery.endpointId));
      return outcome;
    }
    const failingSince = delivery.failingSince ?? now;
    const disable = now - failingSince >= DISABLE_AFTER_MS;
    const why = last.lastStatusCode === null ? last.lastResponse : `HTTP ${last.lastStatusCode}`;
    await tx
      .update(webhookEndpoints)
      .set({
        failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${failingSince})`,
        ...(disable
          ? {
              enabled: false,
              disabledReason: `Disabled on ${new Date(now).toISOString().slice(0, 10)}: every delivery failed for 3 days (last: ${why})`,
            }
          : {}),
      })
      .where(eq(webhookEndpoints.id, delivery.endpointId));
    return outcome;
  }
}
