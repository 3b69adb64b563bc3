// How dates and numbers read on screen, the same in server-rendered pages and in islands.
const LONG_DATE = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
const SHORT_DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const COUNT = new Intl.NumberFormat("en-US");
const DAY_MS = 86_400_000;

/** 'MMMM d, yyyy', for subscription dates. */
export const longDate = (date: Date | string | number) => LONG_DATE.format(new Date(date));

// A dashboard formats a date and several counts per row; Intl's format is the slow part of drawing a row, and a
// page's dates fall on few days, so a day's text is kept (these formats show the UTC day only).
const shortDays = new Map<number, string>();
const SHORT_DAYS_KEPT = 4096;

/** Short month, for link creation dates. */
export function shortDate(date: Date | string | number): string {
  const time = new Date(date).getTime();
  const day = Math.floor(time / DAY_MS);
  let text = shortDays.get(day);
  if (text === undefined) {
    text = SHORT_DATE.format(time);
    if (shortDays.size >= SHORT_DAYS_KEPT) shortDays.clear();
    if (Number.isFinite(day)) shortDays.set(day, text);
  }
  return text;
}

/** Thousands separators (none below 1,000: then the digits alone, without asking Intl). */
export const count = (n: number) => (n >= 0 && n < 1000 && Number.isInteger(n) && !Object.is(n, -0) ? String(n) : COUNT.format(n));
