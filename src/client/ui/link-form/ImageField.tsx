// The link editor's image: a file to upload (AI generation shown as coming soon), checked before any request,
// and the focal point every crop keeps, picked on the image about to be used.
import type { Dispatch, RefObject } from "react";
import { MAX_IMAGE_BYTES, type Focal } from "../../../links/model.ts";
import type { LintWarning } from "../../../previews/lint.ts";
import { FocalPicker } from "../FocalPicker.tsx";
import { LintList } from "../LintList.tsx";
import { FieldError } from "./fields.tsx";
import type { ImageAction } from "./image-choice.ts";

export type ImageFieldProps = {
  dispatch: Dispatch<ImageAction>;
  fileInput: RefObject<HTMLInputElement | null>;
  /** The image the focal point is picked on, if any. */
  pickSource: string | null;
  focal: Focal;
  importing: boolean;
  error?: string;
  onError: (message: string | undefined) => void;
  warnings: LintWarning[];
};

export function ImageField({ dispatch, fileInput, pickSource, focal, importing, error, onError, warnings }: ImageFieldProps) {
  const choose = (file: File | null) => {
    onError(undefined);
    if (!file) return;
    if (file.size > MAX_IMAGE_BYTES) return onError("File size must be less than 5MB");
    if (!file.type.startsWith("image/")) return onError("Please select an image file");
    const preview = URL.createObjectURL(file);
    dispatch({ type: "pick", file, preview });
    const probe = new Image();
    probe.onload = () => dispatch({ type: "decoded", preview, size: { width: probe.naturalWidth, height: probe.naturalHeight, bytes: file.size } });
    probe.src = preview;
  };

  return (
    <fieldset>
      <legend className="block text-sm font-medium">Image</legend>
      <div role="tablist" aria-label="Image source" className="mt-1 flex gap-2">
        <button type="button" role="tab" aria-selected="true" className="rounded-md bg-gray-900 px-3 py-1.5 text-sm text-white">
          Upload Image
        </button>
        <button type="button" role="tab" aria-selected="false" disabled className="rounded-md border border-gray-200 px-3 py-1.5 text-sm text-gray-400" title="€0.20 per generation, powered by an image model">
          AI Generate <span className="ml-1 rounded bg-gray-100 px-1.5 text-xs">Coming Soon</span>
        </button>
      </div>
      <p className="mt-1 text-xs text-gray-500">AI generation: €0.20 per generation, powered by an image model.</p>
      <label htmlFor="image" className="mt-3 block text-sm">Choose an image</label>
      <input ref={fileInput} id="image" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby="image-hint image-error image-lint" onChange={(e) => choose((e.target as HTMLInputElement).files?.[0] ?? null)} className="mt-1 block text-sm" />
      <p id="image-hint" className="mt-1 text-xs text-gray-500">Recommended size 1200x630. Formats: JPG, PNG, WebP. Up to 5 MB.</p>
      <FieldError id="image-error" message={error} />
      <LintList id="image-lint" warnings={warnings} className="mt-2" />
      {importing && <p className="mt-2 text-sm text-gray-700" data-testid="import-note">The page's image is imported when you save.</p>}
      {pickSource && <FocalPicker key={pickSource} src={pickSource} focal={focal} onChange={(next) => dispatch({ type: "focus", focal: next })} onSize={(size) => dispatch({ type: "measured", src: pickSource, ...size })} />}
    </fieldset>
  );
}
