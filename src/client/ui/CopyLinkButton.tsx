// Copies a short URL to the clipboard.
import { copyWithToast } from "../clipboard.ts";
import { buttonClass } from "./Dialog.tsx";

export function CopyLinkButton({ shortUrl }: { shortUrl: string }) {
  const copy = () => copyWithToast(shortUrl, { copied: "Link copied to clipboard", failed: "Failed to copy link" });
  return (
    <button type="button" className={buttonClass.secondary} onClick={copy} aria-label={`Copy ${shortUrl}`}>
      Copy
    </button>
  );
}
