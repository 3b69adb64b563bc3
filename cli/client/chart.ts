// `linkprev links stats` on a terminal: the per-day series as one sparkline row each (people, crawlers) with
// their min, max and total, and the crawler platforms beside them.
import type { LinkViewsJson } from "../../src/links/wire.ts";
import { platformLabel } from "./output.ts";

const LEVELS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];
/** A day with no view: distinct from a small count. */
const NONE = "·";
/** Wider series are summed into buckets of several days so that a row fits a terminal. */
const MAX_MARKS = 60;

type Day = Pick<LinkViewsJson["days"][number], "date" | "human" | "bot">;
type Platform = LinkViewsJson["platforms"][number];

/** Sums consecutive days so that at most `maxMarks` remain. */
function buckets(values: number[], maxMarks: number): { values: number[]; daysPerMark: number } {
  const daysPerMark = Math.max(1, Math.ceil(values.length / maxMarks));
  const summed: number[] = [];
  for (let i = 0; i < values.length; i += daysPerMark)
    summed.push(values.slice(i, i + daysPerMark).reduce((a, b) => a + b, 0));
  return { values: summed, daysPerMark };
}

export function sparkline(values: number[]): string {
  const max = Math.max(0, ...values);
  return values
    .map((value) =>
      value === 0 ? NONE : LEVELS[Math.min(LEVELS.length - 1, Math.ceil((value / max) * LEVELS.length) - 1)],
    )
    .join("");
}

export function viewsChart(days: Day[], platforms: Platform[], maxMarks = MAX_MARKS): string[] {
  const rows = [
    { label: "People", values: days.map((d) => d.human) },
    { label: "Crawlers", values: days.map((d) => d.bot) },
  ];
  const bucketed = rows.map((row) => ({ ...row, ...buckets(row.values, maxMarks) }));
  const daysPerMark = bucketed[0]!.daysPerMark;
  const marks = bucketed[0]!.values.length;
  const first = days[0]?.date ?? "";
  const last = days.at(-1)?.date ?? "";
  const left = [
    `${"".padEnd(9)}${first.padEnd(Math.max(first.length + 1, marks - last.length))}${last}`,
    ...bucketed.map(({ label, values }) => {
      const all = rows.find((row) => row.label === label)!.values;
      return `${label.padEnd(9)}${sparkline(values)}  min ${Math.min(...all)} · max ${Math.max(...all)} · total ${all.reduce((a, b) => a + b, 0)}`;
    }),
    daysPerMark > 1 ? `${"".padEnd(9)}each mark: ${daysPerMark} days` : "",
  ].filter((line) => line !== "");
  const top = platforms.slice(0, Math.max(left.length, 1) + 2);
  const names = top.map((p) => platformLabel(p.platform));
  const platformWidth = Math.max(0, ...names.map((name) => name.length));
  const right =
    top.length === 0
      ? ["No crawler has fetched the card yet"]
      : [
          "Crawlers by platform",
          ...top.map((p, i) => `${names[i]!.padEnd(platformWidth)} ${String(p.count).padStart(5)}`),
        ];
  // Every mark is one UTF-16 unit, so string lengths are column widths.
  const leftWidth = Math.max(...left.map((line) => line.length));
  return Array.from({ length: Math.max(left.length, right.length) }, (_, i) =>
    `${(left[i] ?? "").padEnd(leftWidth)}${i < right.length ? `   ${right[i]}` : ""}`.trimEnd(),
  );
}
