// A dashboard row's actions: copy the short URL, its QR code, statistics, edit and delete. One island per row
// rather than one per button: each island costs the server a wrapper and its serialized props on every dashboard.
import { CopyLinkButton } from "../src/client/ui/CopyLinkButton.tsx";
import { DeleteLinkButton } from "../src/client/ui/DeleteLinkButton.tsx";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { QrCodeButton } from "../src/client/ui/QrCodeButton.tsx";
import { useShortUrl } from "../src/client/link-version.ts";

export type LinkActionsProps = { id: number; slug: string; title: string; shortUrl: string };

export default function LinkActions({ id, slug, title, shortUrl }: LinkActionsProps) {
  const path = encodeURIComponent(slug);
  return (
    <>
      <CopyLinkButton shortUrl={useShortUrl(id, shortUrl)} />
      <QrCodeButton id={id} slug={slug} title={title} />
      <a href={`/admin/link/stats/${path}`} className={buttonClass.secondary} aria-label={`Statistics of ${title}`}>
        Statistics
      </a>
      <a href={`/admin/link/edit/${path}`} className={buttonClass.secondary} aria-label={`Edit ${title}`}>
        Edit
      </a>
      <DeleteLinkButton id={id} title={title} />
    </>
  );
}
