// The link editor's custom slug: checked for availability when the field is left (the server checks again on save).
import { useState } from "react";
import { LinkInput } from "../../../links/model.ts";
import type { SlugAvailabilityJson } from "../../../links/wire.ts";
import { api } from "../../api.ts";
import { FieldError, inputClass } from "./fields.tsx";

export type SlugFieldProps = {
  slug: string;
  onSlug: (slug: string) => void;
  /** The saved slug of the link edited (never checked), null on create. */
  savedSlug: string | null;
  /** The link edited, null on create: its own earlier slugs are free to it, as saving it allows. */
  linkId: number | null;
  customSlugAllowed: boolean;
  userSlug: string;
  error?: string;
  onError: (message: string) => void;
  /** The server's refusal of the slug, which blocks saving until the slug changes. */
  taken: string | null;
  onTaken: (message: string | null) => void;
};

export function SlugField({
  slug,
  onSlug,
  savedSlug,
  linkId,
  customSlugAllowed,
  userSlug,
  error,
  onError,
  taken,
  onTaken,
}: SlugFieldProps) {
  const [note, setNote] = useState<string | null>(null);

  const check = async () => {
    setNote(null);
    onTaken(null);
    if (!slug || !customSlugAllowed || slug === savedSlug) return;
    const parsed = LinkInput.shape.customLinkSlug.safeParse(slug);
    if (!parsed.success) return onError(parsed.error.issues[0]!.message);
    try {
      const query = new URLSearchParams({ slug, ...(linkId === null ? {} : { linkId: String(linkId) }) });
      const answer = await api<SlugAvailabilityJson>(`/api/links/check-slug-availability?${query}`);
      // Said at the field only: a toast repeating it would cover the next field (or the field itself).
      if (answer.available) setNote("Custom slug available");
      else onTaken(answer.message || "This custom URL is already taken");
    } catch {
      // The check is a convenience; the server checks again on save.
    }
  };

  return (
    <div>
      <label htmlFor="customLinkSlug" className="block text-sm font-medium">
        Custom URL
      </label>
      {/* The prefix is the input's attached addon: same height, same baseline. */}
      <div className="mt-1 flex items-stretch text-sm">
        <span
          className="inline-flex shrink-0 items-center rounded-l-md border border-r-0 border-gray-300 bg-gray-50 px-3 text-gray-600"
          data-testid="slug-prefix"
        >{`/go/${userSlug}/`}</span>
        <input
          id="customLinkSlug"
          value={slug}
          disabled={!customSlugAllowed}
          placeholder={customSlugAllowed ? "my-link" : "generated for you"}
          maxLength={40}
          aria-invalid={Boolean(error || taken)}
          aria-describedby="customLinkSlug-error"
          onChange={(e) => {
            onSlug((e.target as HTMLInputElement).value);
            onTaken(null);
            setNote(null);
          }}
          onBlur={check}
          className={`min-w-0 ${inputClass(Boolean(error || taken), { attached: true })}`}
        />
      </div>
      {!customSlugAllowed && (
        <p className="mt-1 text-sm text-gray-600">
          Custom URLs come with the Pro and Enterprise plans.{" "}
          <a href="/pricing" className="text-indigo-700 underline">
            Upgrade
          </a>
        </p>
      )}
      <FieldError id="customLinkSlug-error" message={error ?? taken ?? undefined} />
      {note && <p className="mt-1 text-sm text-green-700">{note}</p>}
    </div>
  );
}
