// A link's QR code in a dialog, with SVG and PNG downloads. The code points at the short URL with the scan
// marker, so people who come through it are counted as scans (GET /api/links/:id/qr).
import { useState } from "react";
import { buttonClass, Dialog } from "./Dialog.tsx";

export function QrCodeButton({ id, slug, title }: { id: number; slug: string; title: string }) {
  const [open, setOpen] = useState(false);
  const code = `/api/links/${id}/qr`;
  return (
    <>
      <button
        type="button"
        className={buttonClass.secondary}
        onClick={() => setOpen(true)}
        aria-label={`QR code for ${title}`}
      >
        QR code
      </button>
      <Dialog
        open={open}
        title="QR code"
        description="People who scan it are counted as scans, apart from other visits."
        onDismiss={() => setOpen(false)}
      >
        <img
          src={`${code}?format=svg&size=256`}
          width={256}
          height={256}
          alt={`QR code for ${title}`}
          className="mx-auto"
          data-testid="qr-image"
        />
        <div className="mt-4 flex flex-wrap justify-end gap-2">
          <a href={`${code}?format=svg&size=1024`} download={`${slug}-qr.svg`} className={buttonClass.secondary}>
            Download SVG
          </a>
          <a href={`${code}?format=png&size=1024`} download={`${slug}-qr.png`} className={buttonClass.secondary}>
            Download PNG
          </a>
          <button type="button" className={buttonClass.primary} onClick={() => setOpen(false)}>
            Close
          </button>
        </div>
      </Dialog>
    </>
  );
}
