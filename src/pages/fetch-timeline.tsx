// The link's page: each crawler fetch of its card on record, newest first (docs/decisions/0066), beside the form and
// its lint: who fetched, whether its network checked out, which version and card. Drawn on the server, no script.
import type { CrawlerFetchJson } from "../links/fetches-wire.ts";
import { VARIANT_RENDITION, type CardVariant } from "../previews/variants.ts";
import { platformName } from "./views-chart.tsx";

const VERIFICATION_TEXT: Record<CrawlerFetchJson["verification"], string> = {
  verified: "verified by its network",
  unverified: "unverified: not from its platform's network",
  unverifiable: "unverifiable",
};

const utc = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

/** "WhatsApp, verified by its network, fetched version 3 at 2026-12-07 10:02 UTC: square image, 2.2 KB page" */
export function fetchLine(f: CrawlerFetchJson): string {
  const who = `${platformName(f.platform)}, ${VERIFICATION_TEXT[f.verification]}`;
  const what =
    f.rendition === null
      ? `checked the link (${f.status}, sent on like a person)`
      : `${VARIANT_RENDITION[f.rendition as CardVariant] ?? f.rendition} image, ${size(f.bytes)} page`;
  return `${who}, fetched version ${f.version} at ${utc(f.at)}: ${what}`;
}

export function FetchTimeline({ fetches, linkId }: { fetches: CrawlerFetchJson[]; linkId: number }) {
  return (
    <section aria-labelledby="fetch-timeline" className="mt-8 rounded-lg border border-gray-200 p-4">
      <h2 id="fetch-timeline" className="text-lg font-semibold">
        Card fetches
      </h2>
      {fetches.length === 0 ? (
        <p className="mt-2 text-sm text-gray-600">No platform has fetched the card yet.</p>
      ) : (
        <ol className="mt-2 divide-y divide-gray-100 text-sm" data-testid="fetch-timeline">
          {fetches.map((f) => (
            <li key={`${f.at}${f.platform}`} className="py-1.5" data-verification={f.verification}>
              {fetchLine(f)}
            </li>
          ))}
        </ol>
      )}
      <p className="mt-2 text-xs text-gray-600">
        {"The newest fetches; all of them (the last 1,000, 90 days) from "}
        <code>{`GET /api/links/${linkId}/fetches`}</code>.
      </p>
    </section>
  );
}
