// The link editor's target URL and auto-fill from it: fills only the empty title and description from the page,
// and offers the page's image when the link has none (imported by the server on save, once accepted).
import { useState } from "react";
import { LinkInput } from "../../../links/model.ts";
import type { PageMetadataJson } from "../../../links/wire.ts";
import { api, errorMessage } from "../../api.ts";
import { buttonClass } from "../Dialog.tsx";
import { FieldError, inputClass } from "./fields.tsx";

export type AutoFillProps = {
  targetUrl: string;
  onTargetUrl: (url: string) => void;
  error?: string;
  onError: (message: string) => void;
  /** Whether the server may fetch the target page (FETCH_DISABLED hides "Fill from page"). */
  enabled: boolean;
  /** The title and description as typed, and what fills them. */
  text: { title: string; description: string };
  onFill: (found: { title?: string; description?: string }) => void;
  /** Whether the link already has an image (then the page's is not offered). */
  hasImage: boolean;
  suggested: string | null;
  onOffer: (url: string | null) => void;
  onAccept: () => void;
};

export function AutoFill({
  targetUrl,
  onTargetUrl,
  error,
  onError,
  enabled,
  text,
  onFill,
  hasImage,
  suggested,
  onOffer,
  onAccept,
}: AutoFillProps) {
  const [filling, setFilling] = useState(false);
  const [note, setNote] = useState<{ text: string; failed: boolean } | null>(null);
  const [pasted, setPasted] = useState(false);

  const fill = async () => {
    setPasted(false);
    const url = LinkInput.shape.targetUrl.safeParse(targetUrl);
    if (!url.success) return onError(url.error.issues[0]!.message);
    setFilling(true);
    setNote(null);
    try {
      const found = await api<PageMetadataJson>("/api/links/metadata", { method: "POST", json: { url: url.data } });
      const filled: { title?: string; description?: string } = {};
      if (!text.title.trim() && found.title) filled.title = found.title;
      if (!text.description.trim() && found.description) filled.description = found.description;
      onFill(filled);
      const offered = found.imageUrl && !hasImage ? found.imageUrl : null;
      onOffer(offered);
      const names = Object.keys(filled);
      setNote({
        failed: false,
        text:
          names.length > 0
            ? `Filled the ${names.join(" and ")} from the page.`
            : offered
              ? "The page's image is offered below."
              : "Nothing to fill: your fields are kept as they are.",
      });
    } catch (failure) {
      setNote({ failed: true, text: `Could not fill from the page: ${errorMessage(failure)}` });
    } finally {
      setFilling(false);
    }
  };

  return (
    <div>
      <label htmlFor="targetUrl" className="block text-sm font-medium">
        Target URL
      </label>
      <div className="flex items-end gap-2">
        <input
          id="targetUrl"
          type="url"
          inputMode="url"
          value={targetUrl}
          placeholder="https://"
          aria-invalid={Boolean(error)}
          aria-describedby="targetUrl-error"
          onChange={(e) => onTargetUrl((e.target as HTMLInputElement).value)}
          onPaste={() => enabled && setPasted(true)}
          className={inputClass(Boolean(error))}
        />
        {enabled && (
          <button type="button" className={`${buttonClass.secondary} shrink-0`} disabled={filling} onClick={fill}>
            {filling ? "Filling…" : "Fill from page"}
          </button>
        )}
      </div>
      <FieldError id="targetUrl-error" message={error} />
      {enabled && (
        <div aria-live="polite" data-testid="autofill">
          {pasted && !note && (
            <p className="mt-1 text-sm text-gray-700">
              Pasted a link: “Fill from page” fills the empty fields from it.
            </p>
          )}
          {note && (
            <p
              className={`mt-1 text-sm ${note.failed ? "text-red-700" : "text-green-800"}`}
              data-testid="autofill-note"
            >
              {note.text}
            </p>
          )}
          {suggested && (
            <div
              className="mt-2 flex flex-wrap items-center gap-3 rounded-md border border-gray-200 p-2"
              data-testid="image-suggestion"
            >
              <img src={suggested} alt="The page's image" className="h-16 w-28 rounded object-cover" />
              <button type="button" className={buttonClass.primary} onClick={onAccept}>
                Use this image
              </button>
              <button type="button" className={buttonClass.secondary} onClick={() => onOffer(null)}>
                No, thanks
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
