// The link editor's image: a file to upload (AI generation shown as coming soon) from a drop zone that takes a
// click, a dragged file or a pasted image, checked before any request, and the focal point every crop keeps,
// picked on the image about to be used.
import { useEffect, useState, type Dispatch, type RefObject } from "react";
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

export function ImageField({
  dispatch,
  fileInput,
  pickSource,
  focal,
  importing,
  error,
  onError,
  warnings,
}: ImageFieldProps) {
  const [dragging, setDragging] = useState(false);
  const choose = (file: File | null) => {
    onError(undefined);
    if (!file) return;
    if (file.size > MAX_IMAGE_BYTES) return onError("File size must be less than 5MB");
    if (!file.type.startsWith("image/")) return onError("Please select an image file");
    const preview = URL.createObjectURL(file);
    dispatch({ type: "pick", file, preview });
    const probe = new Image();
    probe.onload = () =>
      dispatch({
        type: "decoded",
        preview,
        size: { width: probe.naturalWidth, height: probe.naturalHeight, bytes: file.size },
      });
    probe.src = preview;
  };

  // A pasted image (a screenshot, an image copied from a page) is taken wherever the focus is; pasted text is not.
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = [...(event.clipboardData?.files ?? [])].find((f) => f.type.startsWith("image/"));
      if (!file) return;
      event.preventDefault();
      choose(file);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  });

  return (
    <fieldset>
      <legend className="block text-sm font-medium">Image</legend>
      <div role="tablist" aria-label="Image source" className="mt-1 flex gap-2">
        <button
          type="button"
          role="tab"
          aria-selected="true"
          className="rounded-md bg-gray-900 px-3 py-1.5 text-sm text-white"
        >
          Upload Image
        </button>
        <button
          type="button"
          role="tab"
          aria-selected="false"
          disabled
          className="rounded-md border border-gray-200 px-3 py-1.5 text-sm text-gray-400"
          title="€0.20 per generation, powered by an image model"
        >
          AI Generate <span className="ml-1 rounded bg-gray-100 px-1.5 text-xs">Coming Soon</span>
        </button>
      </div>
      <p className="mt-1 text-xs text-gray-500">AI generation: €0.20 per generation, powered by an image model.</p>
      <label
        htmlFor="image"
        data-testid="drop-zone"
        data-dragging={dragging || undefined}
        onDragOver={(e) => (e.preventDefault(), setDragging(true))}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault();
          setDragging(false);
          choose(e.dataTransfer.files[0] ?? null);
        }}
        className={`mt-3 flex cursor-pointer flex-col items-center gap-1 rounded-lg border-2 border-dashed px-4 py-6 text-center text-sm focus-within:ring-2 focus-within:ring-indigo-500 ${dragging ? "border-indigo-500 bg-indigo-50" : error ? "border-red-500 bg-white" : "border-gray-300 bg-gray-50 hover:border-indigo-400"}`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="28"
          height="28"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          className="text-gray-400"
        >
          <path d="M4 16v3h16v-3M12 4v11M7 9l5-5 5 5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className="font-medium text-indigo-700">Choose an image</span>
        <span className="text-gray-600">or drag it here, or paste it</span>
        <input
          ref={fileInput}
          id="image"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          aria-describedby="image-hint image-error image-lint"
          onChange={(e) => choose((e.target as HTMLInputElement).files?.[0] ?? null)}
          className="sr-only"
        />
      </label>
      <p id="image-hint" className="mt-1 text-xs text-gray-500">
        Recommended size 1200x630. Formats: JPG, PNG, WebP. Up to 5 MB.
      </p>
      <FieldError id="image-error" message={error} />
      <LintList id="image-lint" warnings={warnings} className="mt-2" />
      {importing && (
        <p className="mt-2 text-sm text-gray-700" data-testid="import-note">
          The page's image is imported when you save.
        </p>
      )}
      {pickSource && (
        <FocalPicker
          key={pickSource}
          src={pickSource}
          focal={focal}
          onChange={(next) => dispatch({ type: "focus", focal: next })}
          onSize={(size) => dispatch({ type: "measured", src: pickSource, ...size })}
        />
      )}
    </fieldset>
  );
}
