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

  /** Counts one request from the client at `address` (under `scope`); throws a 429 once it is over its limit in this window. */
  async hit(address: string, scope = ""): Promise<void> {
    const now = this.clock.now();
    if ((await this.countHit(`${scope}${rateKey(address)}`, now - (now % this.windowMs), this.windowMs)) > this.limit) throw tooManyRequests();
  }
}
