// A fixed-window request counter per client (an IPv4 address or an IPv6 /64: src/http/client-ip.ts rateKey): enough to slow down guessing and floods on the
// sign-in and token endpoints. The platform's HitCounter (db/ports.ts) keeps the counts: in memory on SQLite
// (one process), in the database on PostgreSQL, so that N nodes behind a balancer share one limit.
import type { Clock } from "../clock.ts";
import { rateKey } from "./client-ip.ts";
import { tooManyRequests } from "./errors.ts";

/** Adds one to `key`'s count in the window of `windowMs` starting at `windowStart`; the new count. */
export type HitCounter = (key: string, windowStart: number, windowMs: number) => Promise<number>;

export class RateLimiter {
  constructor(
    private readonly countHit: HitCounter,
    private readonly limit: number,
    private readonly clock: Clock,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request from the client at `address` (under `scope`); throws a 429, due again when the window ends, once it is over its limit. */
  async hit(
    address: string,
    scope = "",
    message = "Too many requests. Please wait a minute and try again.",
  ): Promise<void> {
    const now = this.clock.now();
    const windowStart = now - (now % this.windowMs);
    if ((await this.countHit(`${scope}${rateKey(address)}`, windowStart, this.windowMs)) > this.limit)
      throw tooManyRequests(message, windowStart + this.windowMs - now);
  }
}
