// Copies a short URL to the clipboard.
import { toast } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";

export default function CopyLinkButton({ shortUrl }: { shortUrl: string }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(shortUrl);
      toast({ title: "Copied!", description: "Link copied to clipboard" });
    } catch {
      toast({ title: "Error", description: "Failed to copy link", variant: "destructive" });
    }
  };
  return (
    <button type="button" className={buttonClass.secondary} onClick={copy} aria-label={`Copy ${shortUrl}`}>
      Copy
    </button>
  );
}
