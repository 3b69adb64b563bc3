// The link editor (SPEC §2, §4, §5): custom slug with availability check, image upload (AI generation shown as
// coming soon), title, description, target, every validation message at its field before any request, and a
// live preview of the card, also as each platform draws it, and the preview lint (src/previews/lint.ts) run as the
// user types or picks an image, beside the fields and the mockups. Issue 20: auto-fill from the target page (only
// empty fields; its image only when accepted, then imported by the server), the focal point the renditions are cut
// around, and the X title / WhatsApp description overrides, each mockup drawing the variant its platform gets.
import { useEffect, useMemo, useRef, useState } from "react";
import { api, errorMessage } from "../src/client/api.ts";
import { toast, toastAfterNavigation } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { FocalPicker, cropPosition, type Focal } from "../src/client/ui/FocalPicker.tsx";
import { LintList } from "../src/client/ui/LintList.tsx";
import { PreviewMockups, type PreviewImage } from "../src/client/ui/PreviewMockups.tsx";
import type { PageMetadata } from "../src/links/metadata.ts";
import { DESCRIPTION_MAX, LinkInput, TITLE_MAX } from "../src/links/model.ts";
import { shortUrlOf } from "../src/links/url.ts";
import { lintPreview, type LintImage, type LintWarning, type RuleId } from "../src/previews/lint.ts";
import { WHATSAPP_DESCRIPTION_MAX, X_TITLE_MAX, type RenditionId } from "../src/previews/variants.ts";
import CopyLinkButton from "./CopyLinkButton.tsx";

export type LinkFormProps = {
  mode: "create" | "edit";
  link: {
    linkSlug: string;
    targetUrl: string;
    title: string;
    description: string;
    imageUrl: string | null;
    imageSource: string | null;
    /** The address to share now (the newest version's). */
    currentShortUrl: string;
    version: number;
    focalX: number;
    focalY: number;
    images: Record<RenditionId, string | null>;
    variants: { x: { title: string | null }; whatsapp: { description: string | null } };
  } | null;
  /**
   * The uploaded image's recorded source size (the link JSON's `sourceImage`), so image rules judge it at once,
   * and the kept upright source the focal point is picked on (null for a link from before variants).
   */
  sourceImage: { width: number; height: number; bytes: number; url: string | null } | null;
  customSlugAllowed: boolean;
  userSlug: string;
  publicUrl: string;
  /** Whether the server may fetch the target page (FETCH_DISABLED hides "Fill from page"). */
  autoFill: boolean;
};

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const CENTRE: Focal = { x: 0.5, y: 0.5 };
type Field = "title" | "description" | "targetUrl" | "customLinkSlug" | "image" | "xTitle" | "whatsappDescription";
/** Where a form-wide validation issue is shown: its top-level field, or the override's own field. */
const fieldOf = (path: readonly PropertyKey[]): Field =>
  path[0] === "variants" ? (path[1] === "x" ? "xTitle" : "whatsappDescription") : (path[0] as Field);

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

export default function LinkForm({ mode, link, sourceImage, customSlugAllowed, userSlug, publicUrl, autoFill }: LinkFormProps) {
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
  const [focal, setFocal] = useState<Focal>(link ? { x: link.focalX, y: link.focalY } : CENTRE);
  // The picker image's natural size, with the image it belongs to (a newer pick may still be loading).
  const [natural, setNatural] = useState<{ src: string; width: number; height: number } | null>(null);
  const [xTitle, setXTitle] = useState(link?.variants.x.title ?? "");
  const [whatsappDescription, setWhatsappDescription] = useState(link?.variants.whatsapp.description ?? "");
  // Auto-fill: the page's image offered, the one accepted (imported by the server on save), what the fill said.
  const [suggestedImage, setSuggestedImage] = useState<string | null>(null);
  const [importUrl, setImportUrl] = useState<string | null>(null);
  const [filling, setFilling] = useState(false);
  const [fillNote, setFillNote] = useState<{ text: string; failed: boolean } | null>(null);
  const [pasted, setPasted] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => () => void (filePreview && URL.revokeObjectURL(filePreview)), [filePreview]);

  const shortUrl = shortUrlOf(publicUrl, userSlug, slug || (mode === "edit" ? link!.linkSlug : "…"), link?.version);
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
    setImportUrl(null);
    setFocal(CENTRE);
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

  /** Fills the empty title and description from the target page, and offers its image when the link has none. */
  const fillFromPage = async () => {
    setPasted(false);
    const url = LinkInput.shape.targetUrl.safeParse(targetUrl);
    if (!url.success) return setErrors((e) => ({ ...e, targetUrl: url.error.issues[0]!.message }));
    setFilling(true);
    setFillNote(null);
    try {
      const found = await api<PageMetadata>("/api/links/metadata", { method: "POST", json: { url: url.data } });
      const filled: string[] = [];
      if (!title.trim() && found.title) {
        setTitle(found.title);
        filled.push("title");
      }
      if (!description.trim() && found.description) {
        setDescription(found.description);
        filled.push("description");
      }
      const offered = found.imageUrl && !(file || importUrl || imageUrl) ? found.imageUrl : null;
      setSuggestedImage(offered);
      setFillNote({
        failed: false,
        text: filled.length > 0 ? `Filled the ${filled.join(" and ")} from the page.` : offered ? "The page's image is offered below." : "Nothing to fill: your fields are kept as they are.",
      });
    } catch (error) {
      setFillNote({ failed: true, text: `Could not fill from the page: ${errorMessage(error)}` });
    } finally {
      setFilling(false);
    }
  };

  const acceptSuggestedImage = () => {
    setImportUrl(suggestedImage);
    setSuggestedImage(null);
    setFile(null);
    setFilePreview(null);
    setImageUrl(null);
    setSource(null);
    setFocal(CENTRE);
    pickedUrl.current = null;
    if (fileInput.current) fileInput.current.value = "";
    setErrors((e) => ({ ...e, image: undefined }));
  };

  // The override fields are checked as they are typed, with the server's own rules and messages.
  const variants = { x: { title: xTitle }, whatsapp: { description: whatsappDescription } };
  const variantErrors = useMemo(() => {
    const checked = LinkInput.shape.variants.safeParse({ x: { title: xTitle }, whatsapp: { description: whatsappDescription } });
    const found: Partial<Record<Field, string>> = {};
    if (!checked.success) for (const issue of checked.error.issues) found[fieldOf(["variants", ...issue.path])] ??= issue.message;
    return found;
  }, [xTitle, whatsappDescription]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (slugTaken) return;
    const parsed = LinkInput.safeParse({ title, description, targetUrl, customLinkSlug: customSlugAllowed ? slug : "", variants });
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) next[fieldOf(issue.path)] ??= issue.message;
      setErrors(next);
      if (next.xTitle || next.whatsappDescription) document.getElementById("per-platform-text")?.setAttribute("open", "");
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
    form.append("imageSource", file || importUrl || imageUrl ? "upload" : "");
    if (file) form.append("image", file);
    if (importUrl) form.append("imageImportUrl", importUrl);
    form.append("focalX", String(focal.x));
    form.append("focalY", String(focal.y));
    form.append("variants", JSON.stringify(variants));
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

  // The image the focal point is picked on: a picked file, an accepted page image, or the saved upload's source.
  const keptSource = imageUrl && link?.imageSource === "upload" ? (sourceImage?.url ?? null) : null;
  const pickSource = filePreview ?? importUrl ?? keptSource;
  const size = natural && natural.src === pickSource ? natural : null;
  // An imported image is judged by its size once shown (its bytes are LinkPrev's to re-encode, as an upload's).
  const lintSource = source ?? (importUrl && size ? { width: size.width, height: size.height, bytes: 0 } : null);
  /** Each rendition as the mockups draw it: the server's crop of the source while editing, else what it serves. */
  const rendition = (id: RenditionId): PreviewImage => {
    const known = { width: lintSource?.width ?? null, height: lintSource?.height ?? null };
    if (pickSource) return { src: pickSource, ...known, position: size ? cropPosition(size.width, size.height, id, focal) : undefined };
    const served = imageUrl === link?.imageUrl ? (link?.images[id] ?? imageUrl) : imageUrl;
    return served ? { src: served, ...known } : null;
  };
  const image = filePreview ?? importUrl ?? imageUrl;
  const uploaded = Boolean(file) || Boolean(importUrl) || link?.imageSource === "upload";
  // A platform given its own (valid, so short enough) text no longer cuts the link's.
  const overridden = (rule: string) => (rule === "x-title-cut" && xTitle.trim() !== "") || (rule === "whatsapp-description-long" && whatsappDescription.trim() !== "");
  const warnings = useMemo(
    () => lintPreview({ title, description, imageUrl: image, image: lintSource }).filter((w) => !(uploaded && SERVED_FILE_RULES.has(w.rule)) && !overridden(w.rule)),
    [title, description, image, lintSource?.width, lintSource?.height, lintSource?.bytes, uploaded, xTitle, whatsappDescription],
  );
  const about = (field: "title" | "description" | "image"): LintWarning[] => warnings.filter((w) => RULE_FIELD[w.rule as RuleId] === field);
  return (
    <div className="grid gap-8 lg:grid-cols-2 [&>*]:min-w-0">
      <form onSubmit={submit} noValidate className="space-y-5" aria-label={mode === "create" ? "Create link" : "Edit link"}>
        {link && (
          <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="share-address">
            <span className="text-gray-600">Address to share:</span>
            <span className="break-all font-medium text-indigo-700">{link.currentShortUrl}</span>
            <CopyLinkButton shortUrl={link.currentShortUrl} />
          </p>
        )}
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
          <input ref={fileInput} id="image" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby="image-hint image-error image-lint" onChange={(e) => chooseFile((e.target as HTMLInputElement).files?.[0] ?? null)} className="mt-1 block text-sm" />
          <p id="image-hint" className="mt-1 text-xs text-gray-500">Recommended size 1200x630. Formats: JPG, PNG, WebP. Up to 5 MB.</p>
          <FieldError id="image-error" message={errors.image} />
          <LintList id="image-lint" warnings={about("image")} className="mt-2" />
          {importUrl && <p className="mt-2 text-sm text-gray-700" data-testid="import-note">The page's image is imported when you save.</p>}
          {pickSource && <FocalPicker key={pickSource} src={pickSource} focal={focal} onChange={setFocal} onSize={(size) => setNatural({ src: pickSource, ...size })} />}
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
        <details id="per-platform-text" open={Boolean(link?.variants.x.title || link?.variants.whatsapp.description)} className="rounded-md border border-gray-200 p-3">
          <summary className="cursor-pointer text-sm font-medium">Per-platform text</summary>
          <p className="mt-1 text-xs text-gray-600">Optional: shorter text for the platforms that cut yours. Left empty, they show the title and description above.</p>
          <div className="mt-3">
            <label htmlFor="xTitle" className="block text-sm font-medium">Title on X</label>
            <input id="xTitle" value={xTitle} aria-invalid={Boolean(variantErrors.xTitle)} aria-describedby="xTitle-count xTitle-error" onChange={(e) => setXTitle((e.target as HTMLInputElement).value)} className={inputClass(Boolean(variantErrors.xTitle))} />
            <p id="xTitle-count" className="mt-1 text-xs text-gray-500">{`${xTitle.length}/${X_TITLE_MAX}`}</p>
            <FieldError id="xTitle-error" message={variantErrors.xTitle} />
          </div>
          <div className="mt-3">
            <label htmlFor="whatsappDescription" className="block text-sm font-medium">Description on WhatsApp</label>
            <textarea id="whatsappDescription" rows={2} value={whatsappDescription} aria-invalid={Boolean(variantErrors.whatsappDescription)} aria-describedby="whatsappDescription-count whatsappDescription-error" onChange={(e) => setWhatsappDescription((e.target as HTMLTextAreaElement).value)} className={inputClass(Boolean(variantErrors.whatsappDescription))} />
            <p id="whatsappDescription-count" className="mt-1 text-xs text-gray-500">{`${whatsappDescription.length}/${WHATSAPP_DESCRIPTION_MAX}`}</p>
            <FieldError id="whatsappDescription-error" message={variantErrors.whatsappDescription} />
          </div>
        </details>
        <div>
          <label htmlFor="targetUrl" className="block text-sm font-medium">Target URL</label>
          <div className="flex items-end gap-2">
            <input
              id="targetUrl"
              type="url"
              inputMode="url"
              value={targetUrl}
              placeholder="https://"
              aria-invalid={Boolean(errors.targetUrl)}
              aria-describedby="targetUrl-error"
              onChange={(e) => {
                setTargetUrl((e.target as HTMLInputElement).value);
                setErrors((x) => ({ ...x, targetUrl: undefined }));
              }}
              onPaste={() => autoFill && setPasted(true)}
              className={inputClass(Boolean(errors.targetUrl))}
            />
            {autoFill && (
              <button type="button" className={`${buttonClass.secondary} shrink-0`} disabled={filling} onClick={fillFromPage}>
                {filling ? "Filling…" : "Fill from page"}
              </button>
            )}
          </div>
          <FieldError id="targetUrl-error" message={errors.targetUrl} />
          {autoFill && (
            <div aria-live="polite" data-testid="autofill">
              {pasted && !fillNote && <p className="mt-1 text-sm text-gray-700">Pasted a link: “Fill from page” fills the empty fields from it.</p>}
              {fillNote && <p className={`mt-1 text-sm ${fillNote.failed ? "text-red-700" : "text-green-800"}`} data-testid="autofill-note">{fillNote.text}</p>}
              {suggestedImage && (
                <div className="mt-2 flex flex-wrap items-center gap-3 rounded-md border border-gray-200 p-2" data-testid="image-suggestion">
                  <img src={suggestedImage} alt="The page's image" className="h-16 w-28 rounded object-cover" />
                  <button type="button" className={buttonClass.primary} onClick={acceptSuggestedImage}>Use this image</button>
                  <button type="button" className={buttonClass.secondary} onClick={() => setSuggestedImage(null)}>No, thanks</button>
                </div>
              )}
            </div>
          )}
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
            image: rendition("wide"),
            square: rendition("square"),
            x: rendition("x"),
            xTitle: xTitle.trim() || null,
            whatsappDescription: whatsappDescription.trim() || null,
          }}
          warnings={warnings}
        />
      </section>
    </div>
  );
}
