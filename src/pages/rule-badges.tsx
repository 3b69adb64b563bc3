// A link's rules and health at a glance, on its dashboard row: expiry, a visit cap, a password, targets by device
// or country, and a target that stopped answering (src/rules/health.ts).
import { count, utcTime } from "../client/format.ts";
import type { ListedLink } from "../links/present.ts";
import { brokenText } from "../rules/model.ts";

const badge = "rounded-full px-2 py-0.5 text-xs font-medium";

export function RuleBadges({ link, now }: { link: ListedLink; now: number }) {
  const { health } = link;
  const expired = link.expiresAt !== null && link.expiresAt.getTime() <= now;
  const badges = [
    health.status === "broken" && (
      <span key="broken" className={`${badge} bg-red-100 text-red-800`} data-testid="badge-broken" title={health.finalUrl ?? undefined}>
        {`Target broken: ${brokenText(link)}`}
      </span>
    ),
    link.expiresAt !== null && (
      <span key="expiry" className={`${badge} ${expired ? "bg-gray-200 text-gray-800" : "bg-amber-100 text-amber-800"}`} data-testid="badge-expiry">
        {expired ? "Expired" : `Expires ${utcTime(link.expiresAt)}`}
      </span>
    ),
    link.maxClicks !== null && (
      <span key="cap" className={`${badge} bg-amber-100 text-amber-800`}>
        {`At most ${count(link.maxClicks)} visits`}
      </span>
    ),
    link.hasPassword && (
      <span key="password" className={`${badge} bg-indigo-100 text-indigo-800`}>
        Password
      </span>
    ),
    link.rules.length > 0 && (
      <span key="rules" className={`${badge} bg-indigo-100 text-indigo-800`}>
        {link.rules.length === 1 ? "1 target rule" : `${link.rules.length} target rules`}
      </span>
    ),
  ].filter(Boolean);
  return badges.length > 0 ? <p className="mt-1 flex flex-wrap gap-1" data-testid="rule-badges">{badges}</p> : null;
}
