// What the server asks for the time where users notice time passing (card timestamps, rate-limit windows, how
// long a cached image or link is trusted). Built into the services by src/services.ts; a test hands its own
// clock to startServer and moves it on instead of sleeping.
export type Clock = {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
};

/**
 * A clock that says when it is moved (a test's, tests/helpers/clock.ts). A clock cannot cross a thread, so the
 * server passes each move on to its app workers (src/start/app-workers.ts); `onMove` returns how to stop hearing.
 */
export type MovingClock = Clock & { onMove(listener: (now: number) => void): () => void };

export const systemClock: Clock = { now: () => Date.now() };

/** A thread's clock that reads the time another thread's clock last sent it (`drivenAt`): an app worker's in a test. */
export function drivenClock(drivenAt: number): Clock & { moveTo(now: number): void } {
  let at = drivenAt;
  return { now: () => at, moveTo: (now) => (at = now) };
}
