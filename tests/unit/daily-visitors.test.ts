// The writer's memo of today's visitors: a returning visitor costs no hash and no insert into the same-day set,
// even after a long tail of one-off visitors has passed through the memo (views/daily-visitors.ts).
import { expect, test } from "bun:test";
import { DailyVisitors } from "../../src/views/daily-visitors.ts";

const NOON = 20_000 * 86_400_000 + 43_200_000;
const day = 20_000;

test("a hot visitor stays remembered while 300,000 one-off visitors fill the memo", () => {
  const visitors = new DailyVisitors(() => NOON);
  /** Whether the hot visitor's view of link 1 is sent to the same-day set (a hash computed, an insert). */
  const hotIsSent = () => visitors.firstVisit(day, 1, 0, 1) !== null;
  let oneOffsSent = 0;
  visitors.startBatch(["198.51.100.7", "Mozilla/5.0 hot"]);
  expect(hotIsSent()).toBe(true);
  const hotSentAgain: number[] = [];
  // Batches of 1,000 one-off visitors, each from its own address (new pairs as well as new visitors), each batch
  // with the hot visitor's view, as a hot link gets between the long tail's views.
  for (let first = 0; first < 300_000; first += 1000) {
    const strings = ["198.51.100.7", "Mozilla/5.0 hot"];
    for (let v = first; v < first + 1000; v++) strings.push(`10.${v >> 16}.${(v >> 8) & 255}.${v & 255}`);
    visitors.startBatch(strings);
    for (let i = 0; i < 1000; i++)
      if (visitors.firstVisit(day, 2 + ((first + i) % 5000), 2 + i, 1) !== null) oneOffsSent++;
    if (hotIsSent()) hotSentAgain.push(first);
  }
  expect(oneOffsSent).toBe(300_000);
  expect(hotSentAgain).toEqual([]);
});

test("a visitor the memo forgot is sent again with the same hash (the same-day set dedupes), as a sealed batch's", () => {
  const visitors = new DailyVisitors(() => NOON);
  // A User-Agent longer than the hash's first input buffer, not ASCII.
  const longAgent = `Mozilla/5.0 ${"é".repeat(2000)}`;
  visitors.startBatch(["198.51.100.7", "Mozilla/5.0", longAgent]);
  const first = visitors.firstVisit(day, 1, 0, 1);
  const long = visitors.firstVisit(day, 1, 0, 2);
  expect(new Set([first, long]).size).toBe(2);
  visitors.forget();
  visitors.startBatch(["198.51.100.7", "Mozilla/5.0", longAgent]);
  expect(visitors.firstVisit(day, 1, 0, 1)).toBe(first);
  expect(visitors.firstVisit(day, 1, 0, 1)).toBeNull();
  expect(visitors.hash(day, 1, "198.51.100.7", longAgent)).toBe(long);
});
