// The fixed-window limiter of the sign-in, token and fetch endpoints: over the limit is a 429 for the rest of the
// window, and the next window starts afresh. The window is the server's clock's (src/clock.ts), moved on here.
import { expect, test } from "bun:test";
import { AppError } from "../../src/http/errors.ts";
import { RateLimiter, type HitCounter } from "../../src/http/rate-limit.ts";
import { TestClock } from "../helpers/clock.ts";

/** Counts in memory, as the SQLite platform does. */
function memoryCounter(): HitCounter {
  const counts = new Map<string, number>();
  return async (key, windowStart) => {
    const id = `${key}@${windowStart}`;
    counts.set(id, (counts.get(id) ?? 0) + 1);
    return counts.get(id)!;
  };
}

const status = (hit: Promise<void>) =>
  hit.then(
    () => 200,
    (error: unknown) => (error instanceof AppError ? error.status : 500),
  );

test("over the limit is refused until the window ends; the next window and other keys are let through", async () => {
  const clock = new TestClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const limiter = new RateLimiter(memoryCounter(), 2, clock);
  expect([await status(limiter.hit("a")), await status(limiter.hit("a")), await status(limiter.hit("a"))]).toEqual([
    200, 200, 429,
  ]);
  expect(await status(limiter.hit("b"))).toBe(200);
  clock.advance(59_999);
  expect(await status(limiter.hit("a"))).toBe(429);
  clock.advance(1);
  expect(await status(limiter.hit("a"))).toBe(200);
});
