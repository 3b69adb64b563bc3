// The link editor's per-platform text: a shorter title for X and description for WhatsApp, checked as they are
// typed with the server's own rules and messages.
import { useMemo } from "react";
import { LinkInput } from "../../../links/model.ts";
import { WHATSAPP_DESCRIPTION_MAX, X_TITLE_MAX } from "../../../previews/variants.ts";
import { FieldError, fieldOf, inputClass, LimitCounter, type FieldErrors } from "./fields.tsx";

export type VariantText = { xTitle: string; whatsappDescription: string };

export function VariantFields({
  text,
  onText,
  startOpen,
}: {
  text: VariantText;
  onText: (text: VariantText) => void;
  startOpen: boolean;
}) {
  const { xTitle, whatsappDescription } = text;
  const errors = useMemo(() => {
    const checked = LinkInput.shape.variants.safeParse({
      x: { title: xTitle },
      whatsapp: { description: whatsappDescription },
    });
    const found: FieldErrors = {};
    if (!checked.success)
      for (const issue of checked.error.issues) found[fieldOf(["variants", ...issue.path])] ??= issue.message;
    return found;
  }, [xTitle, whatsappDescription]);

  return (
    <details id="per-platform-text" open={startOpen} className="rounded-md border border-gray-200 p-3">
      <summary className="cursor-pointer text-sm font-medium">Per-platform text</summary>
      <p className="mt-1 text-xs text-gray-600">
        Optional: shorter text for the platforms that cut yours. Left empty, they show the title and description above.
      </p>
      <div className="mt-3">
        <label htmlFor="xTitle" className="block text-sm font-medium">
          Title on X
        </label>
        <input
          id="xTitle"
          value={xTitle}
          aria-invalid={Boolean(errors.xTitle)}
          aria-describedby="xTitle-count xTitle-error"
          onChange={(e) => onText({ ...text, xTitle: (e.target as HTMLInputElement).value })}
          className={inputClass(Boolean(errors.xTitle))}
        />
        <LimitCounter id="xTitle-count" length={xTitle.length} max={X_TITLE_MAX} />
        <FieldError id="xTitle-error" message={errors.xTitle} />
      </div>
      <div className="mt-3">
        <label htmlFor="whatsappDescription" className="block text-sm font-medium">
          Description on WhatsApp
        </label>
        <textarea
          id="whatsappDescription"
          rows={2}
          value={whatsappDescription}
          aria-invalid={Boolean(errors.whatsappDescription)}
          aria-describedby="whatsappDescription-count whatsappDescription-error"
          onChange={(e) => onText({ ...text, whatsappDescription: (e.target as HTMLTextAreaElement).value })}
          className={inputClass(Boolean(errors.whatsappDescription))}
        />
        <LimitCounter
          id="whatsappDescription-count"
          length={whatsappDescription.length}
          max={WHATSAPP_DESCRIPTION_MAX}
        />
        <FieldError id="whatsappDescription-error" message={errors.whatsappDescription} />
      </div>
    </details>
  );
}
