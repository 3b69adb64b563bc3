// A link's last 30 days as a small server-rendered SVG: human views stacked over bot views, per day.
type Day = { date: string; human: number; bot: number };

const WIDTH = 300;
const HEIGHT = 48;

export function ViewsChart({ days }: { days: Day[] }) {
  const max = Math.max(1, ...days.map((d) => d.human + d.bot));
  const bar = WIDTH / days.length;
  const humans = days.reduce((n, d) => n + d.human, 0);
  const bots = days.reduce((n, d) => n + d.bot, 0);
  return (
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-label={`Last ${days.length} days: ${humans} human and ${bots} bot views`} className="max-w-full">
      {days.map((d, i) => {
        const humanHeight = (d.human / max) * HEIGHT;
        const botHeight = (d.bot / max) * HEIGHT;
        return (
          <g key={d.date}>
            <title>{`${d.date}: ${d.human} human, ${d.bot} bot`}</title>
            <rect x={i * bar + 1} y={HEIGHT - humanHeight - botHeight} width={bar - 2} height={botHeight} fill="#9ca3af" />
            <rect x={i * bar + 1} y={HEIGHT - humanHeight} width={bar - 2} height={humanHeight} fill="#4f46e5" />
          </g>
        );
      })}
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
