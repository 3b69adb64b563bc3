// One row of the dashboard's links (src/pages/dashboard.tsx): thumbnail, addresses, rules, counts and actions.
import type { ListedLink } from "../links/present.ts";
import { count, plural, shortDate } from "../client/format.ts";
import { CardFetches, LinkActions, ShortAddress } from "./islands.ts";
import { platformSummary, type PlatformCount } from "./views-chart.tsx";
import { RuleBadges } from "./rule-badges.tsx";

/** "12 people visited (9 daily unique) · 3 crawler fetches · 2 by QR code · created Nov 2, 2026" */
export function linkSummary(
  link: Pick<ListedLink, "viewsHuman" | "viewsBot" | "uniqueHumans" | "scans" | "createdAt">,
): string {
  const parts = [
    link.viewsHuman === 0
      ? "No visits yet"
      : `${plural(link.viewsHuman, "person", "people")} visited (${count(link.uniqueHumans)} daily unique)`,
    ...(link.viewsBot > 0 ? [plural(link.viewsBot, "crawler fetch", "crawler fetches")] : []),
    ...(link.scans > 0 ? [`${count(link.scans)} by QR code`] : []),
    `created ${shortDate(link.createdAt)}`,
  ];
  return parts.join(" · ");
}

export function LinkRow({ link, platforms, now }: { link: ListedLink; platforms?: PlatformCount[]; now: number }) {
  return (
    <li className="rounded-lg border border-gray-200 p-4" data-testid="link-row" data-slug={link.linkSlug}>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 flex-1 gap-3">
          {link.images.wide ? (
            <img
              src={link.images.wide}
              alt=""
              width={96}
              height={50}
              loading="lazy"
              decoding="async"
              className="h-[50px] w-24 shrink-0 rounded border border-gray-200 object-cover"
              data-testid="thumbnail"
            />
          ) : (
            <div
              aria-hidden="true"
              className="h-[50px] w-24 shrink-0 rounded border border-dashed border-gray-300 bg-gray-50"
              data-testid="thumbnail"
            />
          )}
          <div className="min-w-0 flex-1">
            <p className="truncate font-semibold">{link.title}</p>
            <ShortAddress id={link.id} shortUrl={link.currentShortUrl} />
            {link.awaitingDomain ? (
              <p
                className="text-sm text-amber-800"
                data-testid="domain-waiting"
              >{`Waiting for ${link.awaitingDomain} to be verified: shared at this address until then`}</p>
            ) : null}
            <p className="truncate text-sm text-gray-500">{`→ ${link.targetUrl}`}</p>
            <RuleBadges link={link} now={now} />
            {link.status === "disabled" ? (
              <p
                className="text-sm font-semibold text-red-700"
                data-testid="link-disabled"
              >{`Disabled${link.disabledReason ? `: ${link.disabledReason}` : ""}`}</p>
            ) : null}
            <p className="mt-1 text-xs text-gray-600" data-testid="summary">
              {linkSummary(link)}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <LinkActions id={link.id} slug={link.linkSlug} title={link.title} shortUrl={link.currentShortUrl} />
        </div>
      </div>
      <p className="mt-3 text-xs text-gray-600" data-testid="platforms">
        {platforms?.length ? `Card fetched by: ${platformSummary(platforms)}` : "No crawler has fetched the card yet"}
      </p>
      <CardFetches id={link.id} title={link.title} />
    </li>
  );
}
