// When a failed delivery is tried again: about 5 s, 1 min, 10 min, 1 h, 6 h and 24 h after each failure
// (WEBHOOK_RETRY_BASE_MS scales the whole schedule), each up to a fifth later at random so that the receivers
// of one outage are not all called again in the same second.
const SCHEDULE = [1, 12, 120, 720, 4320, 17_280];

/** The delay after the `failures`-th failed attempt; null once the schedule is spent (the delivery has failed). */
export function retryDelay(failures: number, baseMs: number, random: () => number = Math.random): number | null {
  const factor = SCHEDULE[failures - 1];
  if (factor === undefined) return null;
  return Math.round(factor * baseMs * (1 + random() / 5));
}

/** An endpoint whose deliveries have all failed for this long is disabled until its owner re-enables it. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;
