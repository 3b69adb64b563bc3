// What the server asks for the time where users notice time passing (card timestamps, rate-limit windows, how
// long a cached image or link is trusted). Built into the services by src/services.ts; a test hands its own
// clock to startServer and moves it on instead of sleeping.
export type Clock = {
  /** Milliseconds since the epoch, as Date.now(). */
  now(): number;
};

export const systemClock: Clock = { now: () => Date.now() };
