// A link's last 30 days as a small server-rendered SVG: human views stacked over bot views, per day, and a
// tick at each day's unique visitors (never above its human views).
type Day = { date: string; human: number; bot: number; uniqueHumans: number; scans: number };

const WIDTH = 300;
const HEIGHT = 48;

/** Bars as one path per series: a dashboard shows up to hundreds of charts, so few elements each. */
function barsPath(days: Day[], bar: number, scale: number, top: (d: Day) => number, height: (d: Day) => number): string {
  return days
    .map((d, i) => {
      const h = height(d) * scale;
      return h > 0 ? `M${(i * bar + 1).toFixed(1)} ${(HEIGHT - top(d) * scale).toFixed(1)}h${(bar - 2).toFixed(1)}v${h.toFixed(1)}h-${(bar - 2).toFixed(1)}z` : "";
    })
    .join("");
}

export function ViewsChart({ days }: { days: Day[] }) {
  const max = Math.max(1, ...days.map((d) => d.human + d.bot));
  const bar = WIDTH / days.length;
  const scale = HEIGHT / max;
  const humans = days.reduce((n, d) => n + d.human, 0);
  const bots = days.reduce((n, d) => n + d.bot, 0);
  const uniques = days.reduce((n, d) => n + d.uniqueHumans, 0);
  const scans = days.reduce((n, d) => n + d.scans, 0);
  const label = `Last ${days.length} days: ${humans} human and ${bots} bot views; ${uniques} daily unique visitors, summed; ${scans} QR scans`;
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-label={label} className="max-w-full">
      <title>{label}</title>
      <path d={barsPath(days, bar, scale, (d) => d.human + d.bot, (d) => d.bot)} fill="#9ca3af" />
      <path d={barsPath(days, bar, scale, (d) => d.human, (d) => d.human)} fill="#4f46e5" />
      <path d={barsPath(days, bar, scale, (d) => d.uniqueHumans, (d) => (d.uniqueHumans > 0 ? 1.5 / scale : 0))} fill="#f59e0b" data-series="unique" />
      <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} stroke="#e5e7eb" />
    </svg>
  );
}

const PLATFORM_NAMES: Record<string, string> = {
  x: "X", facebook: "Facebook", linkedin: "LinkedIn", slack: "Slack", discord: "Discord", whatsapp: "WhatsApp", telegram: "Telegram",
  imessage: "iMessage", mastodon: "Mastodon", bluesky: "Bluesky", pinterest: "Pinterest", reddit: "Reddit", skype: "Skype", teams: "Teams",
  apple: "Apple", google: "Google", bing: "Bing", other: "Other",
};

/** "Facebook 12 · X 3 · Slack 1" */
export const platformSummary = (platforms: Array<{ platform: string; count: number }>) =>
  platforms.map((p) => `${PLATFORM_NAMES[p.platform] ?? p.platform} ${p.count}`).join(" · ");
