// /admin: the workspace's links with their views (each row in dashboard-link-row.tsx), and the subscription; the
// settings are src/pages/settings-nav.tsx's.
import type { DeletedLink } from "../links/list-deleted.ts";
import type { ListedLink } from "../links/present.ts";
import type { SubscriptionCardProps } from "../../islands/SubscriptionCard.tsx";
import { count, plural, shortDate } from "../client/format.ts";
import { SubscriptionCard } from "./islands.ts";
import { LinkRow } from "./dashboard-link-row.tsx";
import type { PlatformCount } from "./views-chart.tsx";

export type DashboardProps = {
  tab: "links" | "subscription";
  /** When the page is drawn (the server's clock): a link past its expiry shows "Expired". */
  now: number;
  used: number;
  quota: number;
  stats: {
    totalLinks: number;
    totalViews: number;
    humanViews: number;
    botViews: number;
    uniqueHumans: number;
    scans: number;
  };
  /** One page of the live links found, in the order asked for. */
  links: ListedLink[];
  page: number;
  pages: number;
  /** How many live links the search found (all of them without a search). */
  found: number;
  query: { q: string; sort: "newest" | "views" };
  /** The most recently deleted links. */
  deletedLinks: DeletedLink[];
  platforms: Record<number, PlatformCount[]>;
  subscription: SubscriptionCardProps;
};

const button =
  "rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50";

function StatCard({ label, value, note }: { label: string; value: number; note?: string }) {
  return (
    <div className="rounded-lg border border-gray-200 p-4">
      <p className="text-sm text-gray-600">{label}</p>
      <p className="mt-1 text-2xl font-bold" data-testid={`stat-${label.toLowerCase().replace(/ /g, "-")}`}>
        {count(value)}
      </p>
      {note && <p className="text-xs text-gray-500">{note}</p>}
    </div>
  );
}

/** The dashboard's address for a page of this search and order (the defaults left out). */
const dashboardHref = (query: DashboardProps["query"], page: number) => {
  const params = new URLSearchParams({
    ...(query.q ? { q: query.q } : {}),
    ...(query.sort !== "newest" ? { sort: query.sort } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
  });
  return params.size > 0 ? `/admin?${params}` : "/admin";
};

const SORTS: Array<[DashboardProps["query"]["sort"], string]> = [
  ["newest", "Newest"],
  ["views", "Most viewed"],
];

/**
 * Search: a plain GET form, so it works before (and without) any script. The order is a pair of links, so that
 * choosing one applies it at once, still without script; the search keeps the order chosen.
 */
function SearchForm({ query }: { query: DashboardProps["query"] }) {
  return (
    <div className="mt-4 flex flex-wrap items-end gap-x-4 gap-y-3">
      <form method="get" action="/admin" role="search" className="flex min-w-64 flex-1 items-end gap-2">
        {query.sort !== "newest" && <input type="hidden" name="sort" value={query.sort} />}
        <label className="flex min-w-0 flex-1 flex-col text-sm font-medium text-gray-700">
          Search links
          <input
            type="search"
            name="q"
            defaultValue={query.q}
            maxLength={200}
            placeholder="Words in title or URL"
            className="mt-1 w-full rounded-md border border-gray-300 px-3 py-2 font-normal"
          />
        </label>
        <button type="submit" className={button}>
          Search
        </button>
      </form>
      <nav aria-label="Sort links" className="flex items-center gap-1 text-sm">
        <span className="mr-1 font-medium text-gray-700">Sort by</span>
        {SORTS.map(([sort, label]) => (
          <a
            key={sort}
            href={dashboardHref({ q: query.q, sort }, 1)}
            aria-current={query.sort === sort ? "true" : undefined}
            className={`rounded-md px-3 py-2 font-medium ${query.sort === sort ? "bg-gray-900 text-white" : "border border-gray-300 text-gray-800 hover:bg-gray-50"}`}
          >
            {label}
          </a>
        ))}
      </nav>
    </div>
  );
}

export function DashboardPage(props: DashboardProps) {
  const { tab, used, quota, stats, links, deletedLinks } = props;
  const tabClass = (active: boolean) =>
    `rounded-md px-4 py-2 text-sm font-medium ${active ? "bg-gray-900 text-white" : "text-gray-700 hover:bg-gray-100"}`;
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold">Admin Dashboard</h1>
          <p className="mt-1 text-gray-600">Manage your links and subscription</p>
        </div>
        <div className="flex items-center gap-4">
          <p className="text-sm text-gray-600" data-testid="usage">
            {quota === 0 ? `${count(used)} of unlimited links used` : `${count(used)} of ${count(quota)} links used`}
          </p>
          <a
            href="/admin/link/new"
            className="rounded-md bg-indigo-600 px-4 py-2 text-sm font-semibold text-white hover:bg-indigo-500"
          >
            New Link
          </a>
        </div>
      </div>

      <nav aria-label="Dashboard sections" className="mt-6 flex gap-2 border-b border-gray-200 pb-2">
        <a href="/admin" aria-current={tab === "links" ? "page" : undefined} className={tabClass(tab === "links")}>
          Links
        </a>
        <a
          href="/admin?tab=subscription"
          aria-current={tab === "subscription" ? "page" : undefined}
          className={tabClass(tab === "subscription")}
        >
          Subscription
        </a>
        <a href="/admin/workspace" className={tabClass(false)}>
          Settings
        </a>
      </nav>

      {tab === "links" ? (
        <div className="mt-6 space-y-8">
          <div className="grid grid-cols-2 gap-4 md:grid-cols-3">
            <StatCard label="Total Links" value={stats.totalLinks} />
            <StatCard label="Total Views" value={stats.humanViews + stats.botViews} />
            <StatCard label="Human Views" value={stats.humanViews} />
            <StatCard label="Bot Views" value={stats.botViews} />
            <StatCard label="Unique Visitors" value={stats.uniqueHumans} note="daily unique visitors, summed" />
            <StatCard label="QR Scans" value={stats.scans} />
          </div>
          <section aria-labelledby="your-links">
            <h2 id="your-links" className="text-xl font-semibold">
              Your Links
            </h2>
            <SearchForm query={props.query} />
            {props.query.q && (
              <p className="mt-3 text-sm text-gray-700" role="status" data-testid="search-result">
                {`${plural(props.found, "link matches", "links match")} "${props.query.q}"`} ·{" "}
                <a href={dashboardHref({ q: "", sort: props.query.sort }, 1)} className="text-indigo-700 underline">
                  Show all
                </a>
              </p>
            )}
            {links.length === 0 ? (
              props.query.q ? null : (
                <p className="mt-4 text-gray-600">
                  No links yet.{" "}
                  <a href="/admin/link/new" className="text-indigo-700 underline">
                    Create your first link
                  </a>
                  .
                </p>
              )
            ) : (
              <ul className="mt-4 space-y-3">
                {links.map((link) => (
                  <LinkRow key={link.id} link={link} platforms={props.platforms[link.id]} now={props.now} />
                ))}
              </ul>
            )}
            {props.pages > 1 && (
              <nav aria-label="Link pages" className="mt-4 flex items-center justify-between text-sm">
                {props.page > 1 ? (
                  <a href={dashboardHref(props.query, props.page - 1)} className={button}>
                    {props.query.sort === "views" ? "← More viewed" : "← Newer"}
                  </a>
                ) : (
                  <span />
                )}
                <span className="text-gray-600">{`Page ${props.page} of ${props.pages}`}</span>
                {props.page < props.pages ? (
                  <a href={dashboardHref(props.query, props.page + 1)} className={button}>
                    {props.query.sort === "views" ? "Less viewed →" : "Older →"}
                  </a>
                ) : (
                  <span />
                )}
              </nav>
            )}
          </section>
          {deletedLinks.length > 0 && (
            <section aria-labelledby="deleted-links">
              <h2 id="deleted-links" className="text-xl font-semibold">
                Deleted links
              </h2>
              <ul className="mt-4 space-y-2" data-testid="deleted-links">
                {deletedLinks.map((link) => (
                  <li
                    key={link.id}
                    className="rounded-lg border border-dashed border-gray-200 p-3 text-sm text-gray-500"
                  >
                    <span className="font-medium text-gray-700">{link.title}</span>
                    {` · ${link.shortUrl} · created ${shortDate(link.createdAt)} · `}
                    <span className="font-medium text-gray-700" data-testid="deleted-on">
                      {link.deletedAt ? `deleted ${shortDate(link.deletedAt)}` : "deleted"}
                    </span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      ) : (
        <div className="mt-6 grid gap-6 lg:grid-cols-2">
          <SubscriptionCard {...props.subscription} />
          <p className="text-sm text-gray-700">
            API tokens, domains and webhooks are in{" "}
            <a className="underline" href="/admin/workspace">
              workspace settings
            </a>
            ; your data and deleting your account in{" "}
            <a className="underline" href="/account">
              account settings
            </a>
            .
          </p>
        </div>
      )}
    </div>
  );
}
