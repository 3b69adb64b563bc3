// /admin/link/new and /admin/link/edit/:linkSlug
import type { LinkFormProps } from "../../islands/LinkForm.tsx";
import type { OldAddressesProps } from "../../islands/OldAddresses.tsx";
import type { QrStyleEditorProps } from "../../islands/QrStyleEditor.tsx";
import type { CrawlerFetchJson } from "../links/fetches-wire.ts";
import { FetchTimeline } from "./fetch-timeline.tsx";
import { LinkForm, OldAddresses, QrStyleEditor } from "./islands.ts";

const back =
  "rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-800 hover:bg-gray-50";

/**
 * `earlier`: an edited link's earlier addresses (docs/decisions/0047); `fetches`: its newest crawler fetches
 * (docs/decisions/0066); `qr`: its QR section (decision 0067).
 */
export function LinkEditorPage({
  earlier,
  fetches,
  qr,
  ...props
}: LinkFormProps & { earlier?: OldAddressesProps; fetches?: CrawlerFetchJson[]; qr?: QrStyleEditorProps }) {
  return (
    <div>
      <div className="mb-6 flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">{props.mode === "create" ? "Create New Link" : "Edit Link"}</h1>
        <a href="/admin" className={back}>
          ← Back to dashboard
        </a>
      </div>
      {props.link?.status === "disabled" ? <DisabledNotice reason={props.link.disabledReason} /> : null}
      <LinkForm {...props} />
      {qr ? <QrStyleEditor {...qr} /> : null}
      {props.link && fetches ? <FetchTimeline fetches={fetches} linkId={props.link.id} /> : null}
      {earlier && earlier.addresses.length > 0 ? <OldAddresses {...earlier} /> : null}
    </div>
  );
}

/** A disabled link (src/safety/): what its visitors and crawlers get instead of the card, and why. */
export function DisabledNotice({ reason }: { reason: string | null }) {
  return (
    <p
      role="status"
      className="mb-4 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900"
      data-testid="link-disabled"
    >
      {`Disabled${reason ? `: ${reason}` : ""}. Crawlers get a neutral "Link disabled" card and people a warning page instead of a redirect. Contact the operators of this server if you think this is a mistake.`}
    </p>
  );
}

export function LinkNotFoundPage() {
  return (
    <section className="py-16 text-center">
      <h1 className="text-3xl font-bold">Link Not Found</h1>
      <p className="mt-2 text-gray-600">
        The link you're trying to edit doesn't exist or you don't have permission to access it.
      </p>
      <a href="/admin" className={`mt-6 inline-block ${back}`}>
        ← Back to dashboard
      </a>
    </section>
  );
}
