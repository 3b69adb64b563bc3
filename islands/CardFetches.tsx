// Per link on the dashboard: which platforms fetched the card and when, which may still show an older card, and
// how to refresh each (docs/decisions/0013). Loaded from GET /api/links/:id/platforms when opened, so the dashboard
// costs no query per link.
import { useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { checkedByNetwork } from "../src/client/format.ts";
import { toast } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import type { LinkPlatformsJson, LinkVersionJson } from "../src/links/wire.ts";
import { CopyLinkButton } from "../src/client/ui/CopyLinkButton.tsx";
import { announceVersion } from "../src/client/link-version.ts";

/** What issues a new version (refresh kind "new-version"), as the server names it. */
type NewVersionEndpoint = NonNullable<LinkPlatformsJson["platforms"][number]["refresh"]["endpoint"]>;

// In the reader's time zone, named ("Nov 29, 2026, 9:14 AM GMT+1"): the server's UTC would be a wrong hour.
const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
const LINK_LABEL: Record<string, string> = { debugger: "Open debugger", bot: "Open bot", api: "Open" };

export default function CardFetches({ id, title }: { id: number; title: string }) {
  const panelId = `card-fetches-${id}`;
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<LinkPlatformsJson | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [version, setVersion] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);

  const load = async () => {
    setFailed(null);
    try {
      setData(await api<LinkPlatformsJson>(`/api/links/${id}/platforms`));
    } catch (error) {
      setFailed(errorMessage(error));
    }
  };
  const toggle = () => {
    setOpen(!open);
    if (!open && !data) void load();
  };
  const newVersion = async (endpoint: NewVersionEndpoint) => {
    setCreating(true);
    try {
      const made = await api<LinkVersionJson>(endpoint.path, { method: endpoint.method });
      setVersion(made.shortUrl);
      announceVersion(id, made.shortUrl);
      toast({
        title: `Version ${made.version} created`,
        description: "Share the new address: platforms fetch its card afresh.",
      });
    } catch (error) {
      toast({ title: "Error", description: errorMessage(error), variant: "destructive" });
    } finally {
      setCreating(false);
    }
  };

  const stale = data?.platforms.filter((p) => p.stale).length ?? 0;
  return (
    <div className="mt-3" data-testid="card-fetches">
      <button
        type="button"
        className="text-sm font-medium text-indigo-700 underline"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={toggle}
      >
        {open ? "Hide card by platform" : "Card by platform"}
        <span className="sr-only">{` for ${title}`}</span>
      </button>
      {open && (
        <div id={panelId} className="mt-2 rounded-md border border-gray-200 p-3 text-sm">
          {failed ? (
            <p role="alert" className="text-red-700">
              {`Could not load the platforms: ${failed}. `}
              <button type="button" className="underline" onClick={load}>
                Retry
              </button>
            </p>
          ) : !data ? (
            <p className="text-gray-600">Loading…</p>
          ) : (
            <>
              <p className="text-gray-600">
                {`Card last changed ${when(data.cardUpdatedAt)}. `}
                {stale > 0 ? `${stale} platform${stale === 1 ? "" : "s"} may still show the old card.` : ""}
              </p>
              {version && (
                <p className="mt-2 flex flex-wrap items-center gap-2" data-testid="new-version">
                  <span>New address:</span>
                  <span className="break-all font-medium text-indigo-700">{version}</span>
                  <CopyLinkButton shortUrl={version} />
                </p>
              )}
              <ul className="mt-2 divide-y divide-gray-100">
                {data.platforms.map((p) => (
                  <li
                    key={p.platform}
                    className="py-2"
                    data-testid="platform-fetch"
                    data-platform={p.platform}
                    data-stale={p.stale}
                  >
                    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                      <span className="font-medium">{p.name}</span>
                      <span className="text-gray-600">
                        {p.lastFetchedAt
                          ? `${p.fetches} fetch${p.fetches === 1 ? "" : "es"}${checkedByNetwork(p)}, last ${when(p.lastFetchedAt)}`
                          : "Not fetched yet"}
                      </span>
                      {p.stale && (
                        <span className="rounded-full bg-amber-100 px-2 text-xs font-semibold text-amber-900">
                          Shows the old card
                        </span>
                      )}
                      {p.lastFetchedAt && p.refresh.endpoint && (
                        <button
                          type="button"
                          className={buttonClass.secondary}
                          disabled={creating}
                          onClick={() => newVersion(p.refresh.endpoint!)}
                          aria-label={`New version for ${p.name}`}
                        >
                          New version
                        </button>
                      )}
                      {p.lastFetchedAt && !p.refresh.endpoint && p.refresh.url && (
                        <a
                          href={p.refresh.url}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="text-indigo-700 underline"
                          aria-label={`${LINK_LABEL[p.refresh.kind]} for ${p.name} (opens in a new tab)`}
                        >
                          {LINK_LABEL[p.refresh.kind]}
                        </a>
                      )}
                    </div>
                    <p className="text-xs text-gray-600">
                      {p.lastFetchedAt ? `${p.refresh.note} Cache: ${p.cacheNote}.` : `Cache: ${p.cacheNote}.`}
                    </p>
                    {p.scrape && (
                      <p
                        className={`text-xs ${p.scrape.ok ? "text-green-800" : "text-red-700"}`}
                        data-testid="facebook-scrape"
                      >
                        {`Re-scrape asked ${when(p.scrape.at)}: ${p.scrape.ok ? "done" : "failed"}${p.scrape.message ? ` (${p.scrape.message})` : ""}`}
                      </p>
                    )}
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </div>
  );
}
