// How dates and numbers read on screen, the same in server-rendered pages and in islands.
const LONG_DATE = new Intl.DateTimeFormat("en-US", { month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
const SHORT_DATE = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const COUNT = new Intl.NumberFormat("en-US");

/** 'MMMM d, yyyy', for subscription dates. */
export const longDate = (date: Date | string | number) => LONG_DATE.format(new Date(date));
/** Short month, for link creation dates. */
export const shortDate = (date: Date | string | number) => SHORT_DATE.format(new Date(date));
/** Thousands separators. */
export const count = (n: number) => COUNT.format(n);
