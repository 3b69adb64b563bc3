// The link editor (SPEC §2, §4, §5): custom slug with availability check, image upload (AI generation shown as
// coming soon), title, description, target, every validation message at its field before any request, and a
// live preview of the card, also as each platform draws it, and the preview lint (src/previews/lint.ts) run as the
// user types or picks an image, beside the fields and the mockups.
import { useEffect, useMemo, useRef, useState } from "react";
import { api } from "../src/client/api.ts";
import { toast, toastAfterNavigation } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { LintList } from "../src/client/ui/LintList.tsx";
import { PreviewMockups } from "../src/client/ui/PreviewMockups.tsx";
import { DESCRIPTION_MAX, LinkInput, TITLE_MAX } from "../src/links/model.ts";
import { lintPreview, type LintImage, type LintWarning, type RuleId } from "../src/previews/lint.ts";

export type LinkFormProps = {
  mode: "create" | "edit";
  link: { linkSlug: string; targetUrl: string; title: string; description: string; imageUrl: string | null; imageSource: string | null } | null;
  /** The uploaded image's recorded source size (the link JSON's `sourceImage`), so image rules judge it at once. */
  sourceImage: { width: number; height: number; bytes: number } | null;
  customSlugAllowed: boolean;
  userSlug: string;
  publicUrl: string;
};

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
type Field = "title" | "description" | "targetUrl" | "customLinkSlug" | "image";

/** Which field each lint rule is about, to show its warning there. */
const RULE_FIELD: Record<RuleId, "title" | "description" | "image"> = {
  "x-title-cut": "title",
  "discord-title-bytes": "title",
  "discord-description-bytes": "description",
  "whatsapp-description-long": "description",
  "title-equals-description": "description",
  "no-image": "image",
  "image-below-minimum": "image",
  "image-too-small": "image",
  "image-upscaled": "image",
  "image-heavy-crop": "image",
  "whatsapp-image-too-heavy": "image",
  "whatsapp-image-heavy": "image",
};
/**
 * Rules on the size of the file crawlers get. An upload is served as LinkPrev's own re-encoded JPEG, measured when
 * it is saved (the link's `warnings`), so the editor does not judge an upload's source bytes by them.
 */
const SERVED_FILE_RULES: ReadonlySet<string> = new Set<RuleId>(["whatsapp-image-too-heavy", "whatsapp-image-heavy"]);

const inputClass = (invalid: boolean) =>
  `mt-1 block w-full rounded-md border px-3 py-2 text-sm disabled:bg-gray-100 disabled:text-gray-500 ${invalid ? "border-red-500" : "border-gray-300"}`;

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-600" role="alert">
      {message}
    </p>
  ) : null;
}

export default function LinkForm({ mode, link, sourceImage, customSlugAllowed, userSlug, publicUrl }: LinkFormProps) {
  const [title, setTitle] = useState(link?.title ?? "");
  const [description, setDescription] = useState(link?.description ?? "");
  const [targetUrl, setTargetUrl] = useState(link?.targetUrl ?? "");
  const [slug, setSlug] = useState(link?.linkSlug ?? "");
  const [imageUrl, setImageUrl] = useState<string | null>(link?.imageUrl ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [filePreview, setFilePreview] = useState<string | null>(null);
  // The picked file's (or the recorded upload's) source size; null until a picked file is decoded.
  const [source, setSource] = useState<LintImage | null>(sourceImage);
  const pickedUrl = useRef<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [slugTaken, setSlugTaken] = useState<string | null>(null);
  const [slugNote, setSlugNote] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => () => void (filePreview && URL.revokeObjectURL(filePreview)), [filePreview]);

  const shortUrl = `${publicUrl}/go/${userSlug}/${slug || (mode === "edit" ? link!.linkSlug : "…")}`;
  const host = useMemo(() => (URL.canParse(targetUrl) ? new URL(targetUrl).hostname : new URL(publicUrl).hostname), [targetUrl, publicUrl]);

  const checkSlug = async () => {
    setSlugNote(null);
    setSlugTaken(null);
    if (!slug || !customSlugAllowed) return;
    if (mode === "edit" && slug === link?.linkSlug) return;
    const parsed = LinkInput.shape.customLinkSlug.safeParse(slug);
    if (!parsed.success) return setErrors((e) => ({ ...e, customLinkSlug: parsed.error.issues[0]!.message }));
    try {
      const answer = await api<{ available: boolean; message: string }>(`/api/links/check-slug-availability?slug=${encodeURIComponent(slug)}`);
      if (answer.available) {
        setSlugNote("Custom slug available");
        toast({ title: "Custom slug available" });
      } else {
        const message = answer.message || "This custom URL is already taken";
        setSlugTaken(message);
        toast({ title: "Error", description: message, variant: "destructive" });
      }
    } catch {
      // The check is a convenience; the server checks again on save.
    }
  };

  const chooseFile = (chosen: File | null) => {
    setErrors((e) => ({ ...e, image: undefined }));
    if (!chosen) return;
    if (chosen.size > MAX_IMAGE_BYTES) return setErrors((e) => ({ ...e, image: "File size must be less than 5MB" }));
    if (!chosen.type.startsWith("image/")) return setErrors((e) => ({ ...e, image: "Please select an image file" }));
    setImageUrl(null);
    setFile(chosen);
    setSource(null);
    const url = URL.createObjectURL(chosen);
    pickedUrl.current = url;
    setFilePreview(url);
    const probe = new Image();
    // Only the latest pick counts: an earlier file may finish decoding after it.
    probe.onload = () => pickedUrl.current === url && setSource({ width: probe.naturalWidth, height: probe.naturalHeight, bytes: chosen.size });
    probe.src = url;
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (slugTaken) return;
    const parsed = LinkInput.safeParse({ title, description, targetUrl, customLinkSlug: customSlugAllowed ? slug : "" });
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as Field] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    setSaving(true);
    const form = new FormData();
    form.append("title", title);
    form.append("description", description);
    form.append("targetUrl", targetUrl);
    form.append("customLinkSlug", customSlugAllowed ? slug : "");
    form.append("imageUrl", imageUrl ?? "");
    form.append("imageSource", file || imageUrl ? "upload" : "");
    if (file) form.append("image", file);
    const created = mode === "create";
    try {
      await api(created ? "/api/links" : `/api/links/by-slug/${encodeURIComponent(link!.linkSlug)}`, { method: created ? "POST" : "PUT", body: form });
      toastAfterNavigation({ title: "Success!", description: created ? "Link created successfully" : "Link updated successfully" });
      window.location.assign("/admin");
    } catch {
      toast({ title: "Error", description: created ? "Failed to create link. Please try again." : "Failed to update link. Please try again.", variant: "destructive" });
      setSaving(false);
    }
  };

  const image = filePreview ?? imageUrl;
  const uploaded = Boolean(file) || link?.imageSource === "upload";
  const warnings = useMemo(
    () => lintPreview({ title, description, imageUrl: image, image: source }).filter((w) => !(uploaded && SERVED_FILE_RULES.has(w.rule))),
    [title, description, image, source, uploaded],
  );
  const about = (field: "title" | "description" | "image"): LintWarning[] => warnings.filter((w) => RULE_FIELD[w.rule as RuleId] === field);
  return (
    <div className="grid gap-8 lg:grid-cols-2 [&>*]:min-w-0">
      <form onSubmit={submit} noValidate className="space-y-5" aria-label={mode === "create" ? "Create link" : "Edit link"}>
        <div>
          <label htmlFor="customLinkSlug" className="block text-sm font-medium">Custom URL</label>
          <div className="mt-1 flex items-center gap-1 text-sm">
            <span className="text-gray-500">{`/go/${userSlug}/`}</span>
            <input
              id="customLinkSlug"
              value={slug}
              disabled={!customSlugAllowed}
              placeholder={customSlugAllowed ? "my-link" : "generated for you"}
              maxLength={40}
              aria-invalid={Boolean(errors.customLinkSlug || slugTaken)}
              aria-describedby="customLinkSlug-error"
              onChange={(e) => {
                setSlug((e.target as HTMLInputElement).value);
                setSlugTaken(null);
                setSlugNote(null);
                setErrors((x) => ({ ...x, customLinkSlug: undefined }));
              }}
              onBlur={checkSlug}
              className={inputClass(Boolean(errors.customLinkSlug || slugTaken))}
            />
          </div>
          {!customSlugAllowed && (
            <p className="mt-1 text-sm text-gray-600">
              Custom URLs come with the Pro and Enterprise plans. <a href="/pricing" className="text-indigo-700 underline">Upgrade</a>
            </p>
          )}
          <FieldError id="customLinkSlug-error" message={errors.customLinkSlug ?? slugTaken ?? undefined} />
          {slugNote && <p className="mt-1 text-sm text-green-700">{slugNote}</p>}
        </div>

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
          <input id="image" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby="image-hint image-error image-lint" onChange={(e) => chooseFile((e.target as HTMLInputElement).files?.[0] ?? null)} className="mt-1 block text-sm" />
          <p id="image-hint" className="mt-1 text-xs text-gray-500">Recommended size 1200x630. Formats: JPG, PNG, WebP. Up to 5 MB.</p>
          <FieldError id="image-error" message={errors.image} />
          <LintList id="image-lint" warnings={about("image")} className="mt-2" />
        </fieldset>

        <div>
          <label htmlFor="title" className="block text-sm font-medium">Title</label>
          <input id="title" value={title} aria-invalid={Boolean(errors.title)} aria-describedby="title-error title-lint" onChange={(e) => setTitle((e.target as HTMLInputElement).value)} className={inputClass(Boolean(errors.title))} />
          <p className="mt-1 text-xs text-gray-500">{`${title.length}/${TITLE_MAX}`}</p>
          <FieldError id="title-error" message={errors.title} />
          <LintList id="title-lint" warnings={about("title")} className="mt-2" />
        </div>
        <div>
          <label htmlFor="description" className="block text-sm font-medium">Description</label>
          <textarea id="description" rows={3} value={description} aria-invalid={Boolean(errors.description)} aria-describedby="description-error description-lint" onChange={(e) => setDescription((e.target as HTMLTextAreaElement).value)} className={inputClass(Boolean(errors.description))} />
          <p className="mt-1 text-xs text-gray-500">{`${description.length}/${DESCRIPTION_MAX}`}</p>
          <FieldError id="description-error" message={errors.description} />
          <LintList id="description-lint" warnings={about("description")} className="mt-2" />
        </div>
        <div>
          <label htmlFor="targetUrl" className="block text-sm font-medium">Target URL</label>
          <input id="targetUrl" type="url" inputMode="url" value={targetUrl} placeholder="https://" aria-invalid={Boolean(errors.targetUrl)} aria-describedby="targetUrl-error" onChange={(e) => setTargetUrl((e.target as HTMLInputElement).value)} className={inputClass(Boolean(errors.targetUrl))} />
          <FieldError id="targetUrl-error" message={errors.targetUrl} />
        </div>
        <div className="flex justify-end gap-2">
          <a href="/admin" className={buttonClass.secondary}>Cancel</a>
          <button type="submit" className={buttonClass.primary} disabled={saving || Boolean(slugTaken)}>
            {saving ? "Saving…" : mode === "create" ? "Create Link" : "Update Link"}
          </button>
        </div>
      </form>

      <section aria-labelledby="preview-title-heading">
        <h2 id="preview-title-heading" className="text-sm font-medium">Preview</h2>
        <PreviewMockups
          card={{
            title: title || "Your title",
            description: description || "Your description",
            host,
            shortUrl,
            image: image ? { src: image, width: source?.width ?? null, height: source?.height ?? null } : null,
          }}
          warnings={warnings}
        />
      </section>
    </div>
  );
}
