// A link's rules and health at a glance, on its dashboard row: expiry, a visit cap, a password, targets by device
// or country, and a target that stopped answering (src/rules/health.ts).
import { utcTime } from "../client/format.ts";
import type { ListedLink } from "../links/present.ts";
import { brokenText, expiredText, visitsUsedText } from "../rules/model.ts";

const badge = "rounded-full px-2 py-0.5 text-xs font-medium";

export function RuleBadges({ link, now }: { link: ListedLink; now: number }) {
  const { health } = link;
  // A link people can no longer reach says so first: "Expired", or "3 of 3 visits used" on its cap badge.
  const expired = expiredText(link, now) !== null;
  const usedUp = link.maxClicks !== null && link.visitsUsed >= link.maxClicks;
  const gone = `${badge} bg-gray-200 text-gray-800`;
  const badges = [
    expired && (
      <span key="expired" className={gone} data-testid="badge-expired">
        Expired
      </span>
    ),
    health.status === "broken" && (
      <span
        key="broken"
        className={`${badge} bg-red-100 text-red-800`}
        data-testid="badge-broken"
        title={health.finalUrl ?? undefined}
      >
        {`Target broken: ${brokenText(link)}`}
      </span>
    ),
    link.expiresAt !== null && (
      <span
        key="expiry"
        className={link.expiresAt.getTime() <= now ? gone : `${badge} bg-amber-100 text-amber-800`}
        data-testid="badge-expiry"
      >
        {link.expiresAt.getTime() <= now ? `Expired ${utcTime(link.expiresAt)}` : `Expires ${utcTime(link.expiresAt)}`}
      </span>
    ),
    link.maxClicks !== null && (
      <span key="cap" className={usedUp ? gone : `${badge} bg-amber-100 text-amber-800`} data-testid="badge-cap">
        {visitsUsedText(link.maxClicks, link.visitsUsed)}
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
  return badges.length > 0 ? (
    <p className="mt-1 flex flex-wrap gap-1" data-testid="rule-badges">
      {badges}
    </p>
  ) : null;
}
