// How dates and numbers read on screen, the same in server-rendered pages and in islands.
import { boundedMemo } from "../bounded-memo.ts";

const LONG_DATE = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
const SHORT_DATE = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});
const UTC_TIME = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});
const COUNT = new Intl.NumberFormat("en-US");
const DAY_MS = 86_400_000;

/** 'MMMM d, yyyy', for subscription dates. */
export const longDate = (date: Date | string | number) => LONG_DATE.format(new Date(date));

// A dashboard formats a date and several counts per row; Intl's format is the slow part of drawing a row, and a
// page's dates fall on few days, so a day's text is kept (these formats show the UTC day only; 4,096 days).
const shortDay = boundedMemo(4096, (day: number) => SHORT_DATE.format(day * DAY_MS));

/** Short month, for link creation dates. */
export const shortDate = (date: Date | string | number): string =>
  shortDay(Math.floor(new Date(date).getTime() / DAY_MS));

/** A moment as pages drawn on the server show it, naming its zone: "Nov 30, 2026, 2:00 PM UTC". */
export const utcTime = (date: Date | string | number) => UTC_TIME.format(new Date(date));

/** Thousands separators (none below 1,000: then the digits alone, without asking Intl). */
export const count = (n: number) =>
  n >= 0 && n < 1000 && Number.isInteger(n) && !Object.is(n, -0) ? String(n) : COUNT.format(n);

/** "1 person", "1,204 people": a count with the word for it. */
export const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** " (2 verified, 1 unverified)": a platform's fetches checked by network (docs/verification.md); "" when none was. */
export function checkedByNetwork({ verified, unverified }: { verified: number; unverified: number }): string {
  const parts = [
    ...(verified > 0 ? [`${count(verified)} verified`] : []),
    ...(unverified > 0 ? [`${count(unverified)} unverified`] : []),
  ];
  return parts.length > 0 ? ` (${parts.join(", ")})` : "";
}
