// How many password tries /go takes: per client 10 a minute, right or wrong (an IPv6 client by its /64, which it
// can rotate through); and per link a budget of wrong answers that backs off, so that many clients together cannot
// guess either: past 20 wrong in a minute the link takes no tries until the minute ends, past 100 in an hour until
// the hour ends, past 300 in a day until the day ends. People who gave the password keep their cookie meanwhile.
// The counts are the platform's (shared by every node on PostgreSQL); the lock is remembered per node, which so
// lets one more wrong try through on each node before it learns of it.
import type { Clock } from "../clock.ts";
import type { HitCounter } from "../db/ports.ts";
import { rateKey } from "../http/client-ip.ts";

/** Password tries per client per minute, right or wrong. */
export const PASSWORD_TRIES_PER_MINUTE = 10;
/** Wrong answers a link takes per window before it takes none until the window ends. */
export const LINK_FAILURE_BUDGETS = [
  { windowMs: 60_000, failures: 20 },
  { windowMs: 3_600_000, failures: 100 },
  { windowMs: 86_400_000, failures: 300 },
] as const;

/** Why a try is not taken, and the seconds until one will be (Retry-After). */
export type TryRefused = { who: "client" | "link"; retryAfterSeconds: number };

const windowStart = (now: number, windowMs: number) => now - (now % windowMs);
const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));

export function createPasswordTries(deps: { clock: Clock; countHit: HitCounter["countHit"] }) {
  /** Links past a budget: until when they take no tries. Only links under attack are here, and only until then. */
  const lockedUntil = new Map<number, number>();
  return {
    /** Counts the client's try; the refusal, or null when the try may be checked. */
    async admit(linkId: number, address: string): Promise<TryRefused | null> {
      const now = deps.clock.now();
      const until = lockedUntil.get(linkId);
      if (until !== undefined && until > now) return { who: "link", retryAfterSeconds: secondsUntil(until, now) };
      if (until !== undefined) lockedUntil.delete(linkId);
      const start = windowStart(now, 60_000);
      if ((await deps.countHit(`go-password:${rateKey(address)}`, start, 60_000)) > PASSWORD_TRIES_PER_MINUTE)
        return { who: "client", retryAfterSeconds: secondsUntil(start + 60_000, now) };
      return null;
    },
    /** A wrong answer, counted against the link's budgets. */
    async failed(linkId: number): Promise<void> {
      const now = deps.clock.now();
      const counts = await Promise.all(
        LINK_FAILURE_BUDGETS.map(({ windowMs }) =>
          deps.countHit(`go-password-link:${linkId}`, windowStart(now, windowMs), windowMs),
        ),
      );
      let until = 0;
      LINK_FAILURE_BUDGETS.forEach(({ windowMs, failures }, i) => {
        if (counts[i]! >= failures) until = Math.max(until, windowStart(now, windowMs) + windowMs);
      });
      if (until > now) lockedUntil.set(linkId, until);
    },
  };
}
