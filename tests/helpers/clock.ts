// A clock that stands still until the test moves it: time passes in a test by advance(), never by sleeping.
import type { MovingClock } from "../../src/clock.ts";

export class TestClock implements MovingClock {
  private readonly listeners = new Set<(now: number) => void>();

  constructor(private at = Date.now()) {}

  now(): number {
    return this.at;
  }

  /** Moves the clock on; a server given it tells its app workers before the next request reaches them. */
  advance(ms: number): void {
    this.at += ms;
    for (const listener of this.listeners) listener(this.at);
  }

  onMove(listener: (now: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
