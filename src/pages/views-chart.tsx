// Charts drawn on the server as SVG (docs/decisions/0023): bars per day with a labelled count axis and date axis,
// and horizontal bars for categories. Each series is one path, so a chart of hundreds of days stays a few elements.
import { checkedByNetwork, count, shortDate } from "../client/format.ts";

/**
 * One drawing per screen width, each shown by CSS alone (the page has no script for it). Text in an SVG scales with
 * its drawing, so a single 720-unit drawing put 12-unit text at 5 px on a phone: each frame is as wide as the card it
 * fills is, give or take, and its text stays at 11 px or more down to a 360 px screen (a 294 px card).
 */
type Frame = { width: number; height: number; font: number; dateTicks: number; labelChars: number; className: string };
const FRAMES: Frame[] = [
  { width: 340, height: 230, font: 14, dateTicks: 4, labelChars: 11, className: "sm:hidden" },
  { width: 640, height: 260, font: 13, dateTicks: 6, labelChars: 20, className: "hidden sm:block lg:hidden" },
  { width: 1000, height: 300, font: 14, dateTicks: 8, labelChars: 28, className: "hidden lg:block" },
];
const TOP = 12;
const RIGHT = 12;

export type Series = { name: string; colour: string; values: number[] };

/** A round top for the count axis (1, 2 or 5 times a power of ten) and its step, four steps or fewer. */
function countAxis(max: number): { top: number; step: number } {
  if (max <= 4) return { top: Math.max(1, max), step: 1 };
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return { top: Math.ceil(max / step) * step, step };
}

/** Up to `most` evenly spread day indexes to label, the first and last always among them. */
function dateTicks(days: number, most: number): number[] {
  if (days <= 1) return [0];
  const every = Math.ceil((days - 1) / (most - 1));
  const ticks = [];
  for (let i = 0; i < days - 1; i += every) ticks.push(i);
  if (days - 1 - ticks.at(-1)! < every / 2) ticks.pop();
  return [...ticks, days - 1];
}

type DayChartProps = { title: string; dates: string[]; series: Series[]; stacked: boolean; yLabel: string };

/** One frame's drawing of the day chart. */
function DaySvg({
  frame,
  dates,
  series,
  stacked,
  yLabel,
  captionId,
}: DayChartProps & { frame: Frame; captionId: string }) {
  const { width: WIDTH, height: HEIGHT, font } = frame;
  const LEFT = Math.round(font * 4.4);
  const PLOT_W = WIDTH - LEFT - RIGHT;
  const PLOT_H = HEIGHT - TOP - Math.round(font * 3.4);
  const totals = dates.map((_, i) =>
    stacked ? series.reduce((n, s) => n + s.values[i]!, 0) : Math.max(...series.map((s) => s.values[i]!)),
  );
  const { top, step } = countAxis(Math.max(0, ...totals));
  const y = (n: number) => TOP + PLOT_H - (n / top) * PLOT_H;
  const slot = PLOT_W / dates.length;
  const gap = slot > 4 ? Math.min(2, slot * 0.2) : 0;
  const width = stacked ? slot - gap : (slot - gap) / series.length;
  const paths = series.map((s, k) => {
    let d = "";
    for (let i = 0; i < dates.length; i++) {
      const value = s.values[i]!;
      if (value <= 0) continue;
      const below = stacked ? series.slice(0, k).reduce((n, t) => n + t.values[i]!, 0) : 0;
      const x = LEFT + i * slot + gap / 2 + (stacked ? 0 : k * width);
      d += `M${x.toFixed(1)} ${y(below + value).toFixed(1)}h${width.toFixed(2)}V${y(below).toFixed(1)}h${(-width).toFixed(2)}z`;
    }
    return d;
  });
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);
  const middle = TOP + PLOT_H / 2;
  // Narrow day slots: the first and last dates are drawn inward, so they stay inside the drawing.
  const anchor = (i: number) =>
    slot >= font * 3 ? "middle" : i === 0 ? "start" : i === dates.length - 1 ? "end" : "middle";
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      role="img"
      aria-labelledby={captionId}
      className={`h-auto w-full ${frame.className}`}
      data-testid="day-chart"
    >
      {ticks.map((n) => (
        <g key={n}>
          <line x1={LEFT} x2={WIDTH - RIGHT} y1={y(n)} y2={y(n)} stroke={n === 0 ? "#6b7280" : "#e5e7eb"} />
          <text x={LEFT - 6} y={y(n) + font / 3} textAnchor="end" fontSize={font} fill="#374151" data-axis="y">
            {count(n)}
          </text>
        </g>
      ))}
      {series.map((s, k) => (
        <path key={s.name} d={paths[k]} fill={s.colour} data-series={s.name} />
      ))}
      {dateTicks(dates.length, frame.dateTicks).map((i) => (
        <text
          key={i}
          x={LEFT + (i + 0.5) * slot}
          y={TOP + PLOT_H + font * 1.3}
          textAnchor={anchor(i)}
          fontSize={font}
          fill="#374151"
          data-axis="x"
        >
          {shortDate(dates[i]!).replace(/, \d{4}$/, "")}
        </text>
      ))}
      <text x={LEFT + PLOT_W / 2} y={HEIGHT - 4} textAnchor="middle" fontSize={font} fill="#111827">
        Date (UTC)
      </text>
      <text
        x={font}
        y={middle}
        textAnchor="middle"
        fontSize={font}
        fill="#111827"
        transform={`rotate(-90 ${font} ${middle})`}
      >
        {yLabel}
      </text>
    </svg>
  );
}

/** Bars per day, the series stacked (the first at the bottom) or side by side, across the whole card. */
export function DayChart(props: DayChartProps) {
  const { title, dates, series } = props;
  const captionId = `${idOf(title)}-caption`;
  return (
    <figure className="mt-3">
      {FRAMES.map((frame) => (
        <DaySvg key={frame.width} frame={frame} captionId={captionId} {...props} />
      ))}
      <figcaption id={captionId} className="mt-1 flex flex-wrap gap-4 text-sm text-gray-700">
        <span className="sr-only">{`${title}, ${shortDate(dates[0]!)} to ${shortDate(dates.at(-1)!)}: `}</span>
        {series.map((s) => (
          <span key={s.name} className="inline-flex items-center gap-1">
            <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: s.colour }} />
            {`${s.name} ${count(s.values.reduce((n, v) => n + v, 0))}`}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** Horizontal bars, one per category, largest first (as given), with the count at each bar's end; one drawing per frame. */
export function CategoryChart({
  title,
  rows,
  colour,
}: {
  title: string;
  rows: Array<{ label: string; value: number }>;
  colour: string;
}) {
  const max = Math.max(1, ...rows.map((r) => r.value));
  const label = `${title}: ${rows.map((r) => `${r.label} ${r.value}`).join(", ")}`;
  return (
    <>
      {FRAMES.map(({ width, font, labelChars, className }) => {
        const rowHeight = Math.round(font * 1.9);
        const labelWidth = Math.round(labelChars * font * 0.62) + 8;
        const room = width - labelWidth - font * 5;
        return (
          <svg
            key={width}
            viewBox={`0 0 ${width} ${rows.length * rowHeight + 8}`}
            role="img"
            aria-label={label}
            className={`mt-3 h-auto w-full ${className}`}
          >
            {rows.map((r, i) => (
              <g key={r.label}>
                <text x={labelWidth - 8} y={i * rowHeight + font + 6} textAnchor="end" fontSize={font} fill="#374151">
                  {shortLabel(r.label, labelChars)}
                </text>
                <rect
                  x={labelWidth}
                  y={i * rowHeight + 6}
                  width={Math.max(1, (r.value / max) * room)}
                  height={rowHeight - 8}
                  fill={colour}
                />
                <text
                  x={labelWidth + (r.value / max) * room + 6}
                  y={i * rowHeight + font + 6}
                  fontSize={font}
                  fill="#111827"
                >
                  {count(r.value)}
                </text>
              </g>
            ))}
          </svg>
        );
      })}
    </>
  );
}

/** What fits left of the bars (a long referrer host); the full text is in the chart's label and its table. */
const shortLabel = (label: string, most: number) => (label.length > most ? `${label.slice(0, most - 1)}…` : label);

const idOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");

const PLATFORM_NAMES: Record<string, string> = {
  x: "X",
  facebook: "Facebook",
  linkedin: "LinkedIn",
  slack: "Slack",
  discord: "Discord",
  whatsapp: "WhatsApp",
  telegram: "Telegram",
  imessage: "iMessage",
  mastodon: "Mastodon",
  bluesky: "Bluesky",
  pinterest: "Pinterest",
  reddit: "Reddit",
  skype: "Skype",
  teams: "Teams",
  apple: "Apple",
  google: "Google",
  bing: "Bing",
  other: "Other",
};

export const platformName = (id: string) => PLATFORM_NAMES[id] ?? id;

/** A platform's card fetches, and how many of them were verified by network or not (docs/decisions/0066). */
export type PlatformCount = { platform: string; count: number; verified: number; unverified: number };

/** "Facebook 12 (12 verified) · X 3 (2 verified, 1 unverified) · Slack 1" */
export const platformSummary = (platforms: PlatformCount[]) =>
  platforms.map((p) => `${platformName(p.platform)} ${p.count}${checkedByNetwork(p)}`).join(" · ");
