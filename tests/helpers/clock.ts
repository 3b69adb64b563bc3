// A clock that stands still until the test moves it: time passes in a test by advance(), never by sleeping.
import type { Clock } from "../../src/clock.ts";

export class TestClock implements Clock {
  constructor(private at = Date.now()) {}

  now(): number {
    return this.at;
  }

  advance(ms: number): void {
    this.at += ms;
  }
}
