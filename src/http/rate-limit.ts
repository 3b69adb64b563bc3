// A fixed-window request counter per key (an IP address): enough to slow down guessing and floods
// on the sign-in and token endpoints of one server process.
import { tooManyRequests } from "./errors.ts";

export class RateLimiter {
  private counts = new Map<string, number>();
  private windowStartedAt = Date.now();

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts one request for `key`; throws a 429 once the key is over its limit in this window. */
  hit(key: string, now = Date.now()): void {
    if (now - this.windowStartedAt >= this.windowMs) {
      this.counts = new Map();
      this.windowStartedAt = now;
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count > this.limit) throw tooManyRequests();
  }
}
