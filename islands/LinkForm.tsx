// The link editor (SPEC §2, §4, §5): custom slug with availability check, image upload (AI generation shown as
// coming soon), title, description, target, every validation message at its field before any request, and a
// live preview of the card, also as X, Facebook, LinkedIn and Slack draw it.
import { useEffect, useMemo, useState } from "react";
import { api } from "../src/client/api.ts";
import { toast, toastAfterNavigation } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { DESCRIPTION_MAX, LinkInput, TITLE_MAX } from "../src/links/model.ts";

export type LinkFormProps = {
  mode: "create" | "edit";
  link: { linkSlug: string; targetUrl: string; title: string; description: string; imageUrl: string | null; imageSource: string | null } | null;
  customSlugAllowed: boolean;
  userSlug: string;
  publicUrl: string;
};

const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const PLATFORMS = ["Card", "X", "Facebook", "LinkedIn", "Slack"] as const;
type Platform = (typeof PLATFORMS)[number];
type Field = "title" | "description" | "targetUrl" | "customLinkSlug" | "image";

const inputClass = (invalid: boolean) =>
  `mt-1 block w-full rounded-md border px-3 py-2 text-sm disabled:bg-gray-100 disabled:text-gray-500 ${invalid ? "border-red-500" : "border-gray-300"}`;

function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="mt-1 text-sm text-red-600" role="alert">
      {message}
    </p>
  ) : null;
}

function Preview({ platform, image, title, description, host, shortUrl }: { platform: Platform; image: string | null; title: string; description: string; host: string; shortUrl: string }) {
  const shownTitle = title || "Your title";
  const shownDescription = description || "Your description";
  if (platform === "Slack") {
    return (
      <div className="border-l-4 border-gray-300 pl-3 text-sm">
        <p className="font-semibold text-gray-500">LinkPrev</p>
        <p className="font-semibold text-blue-700">{shownTitle}</p>
        <p className="text-gray-700">{shownDescription}</p>
        {image && <img src={image} alt="" className="mt-2 max-h-40 rounded" />}
      </div>
    );
  }
  const compactText = platform === "X" ? "absolute bottom-2 left-2 rounded bg-black/60 px-2 py-0.5 text-xs text-white" : null;
  return (
    <div className={`overflow-hidden border border-gray-200 bg-white ${platform === "X" ? "rounded-2xl" : "rounded-md"}`}>
      <div className="relative aspect-[1200/630] bg-gray-100">
        {image ? <img src={image} alt="" className="h-full w-full object-cover" data-testid="preview-image" /> : <div className="flex h-full items-center justify-center text-sm text-gray-600">1200 × 630</div>}
        {compactText && <span className={compactText}>{shownTitle}</span>}
      </div>
      {platform !== "X" && (
        <div className={`p-3 ${platform === "Facebook" ? "bg-gray-100" : ""}`}>
          {platform !== "LinkedIn" && <p className="text-xs uppercase text-gray-600">{host}</p>}
          <p className="font-semibold" data-testid="preview-title">{shownTitle}</p>
          {platform !== "LinkedIn" && <p className="text-sm text-gray-600" data-testid="preview-description">{shownDescription}</p>}
          {platform === "LinkedIn" && <p className="text-xs text-gray-500">{host}</p>}
        </div>
      )}
      {platform === "Card" && <p className="border-t border-gray-100 px-3 py-2 text-xs text-gray-500" data-testid="preview-url">{shortUrl}</p>}
    </div>
  );
}

export default function LinkForm({ mode, link, customSlugAllowed, userSlug, publicUrl }: LinkFormProps) {
  const [title, setTitle] = useState(link?.title ?? "");
  const [description, setDescription] = useState(link?.description ?? "");
  const [targetUrl, setTargetUrl] = useState(link?.targetUrl ?? "");
  const [slug, setSlug] = useState(link?.linkSlug ?? "");
  const [imageUrl, setImageUrl] = useState<string | null>(link?.imageUrl ?? null);
  const [file, setFile] = useState<File | null>(null);
  const [filePreview, setFilePreview] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [slugTaken, setSlugTaken] = useState<string | null>(null);
  const [slugNote, setSlugNote] = useState<string | null>(null);
  const [platform, setPlatform] = useState<Platform>("Card");
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
    setFilePreview(URL.createObjectURL(chosen));
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
  return (
    <div className="grid gap-8 lg:grid-cols-2">
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
          <input id="image" type="file" accept="image/jpeg,image/png,image/webp" aria-describedby="image-hint image-error" onChange={(e) => chooseFile((e.target as HTMLInputElement).files?.[0] ?? null)} className="mt-1 block text-sm" />
          <p id="image-hint" className="mt-1 text-xs text-gray-500">Recommended size 1200x630. Formats: JPG, PNG, WebP. Up to 5 MB.</p>
          <FieldError id="image-error" message={errors.image} />
        </fieldset>

        <div>
          <label htmlFor="title" className="block text-sm font-medium">Title</label>
          <input id="title" value={title} aria-invalid={Boolean(errors.title)} aria-describedby="title-error" onChange={(e) => setTitle((e.target as HTMLInputElement).value)} className={inputClass(Boolean(errors.title))} />
          <p className="mt-1 text-xs text-gray-500">{`${title.length}/${TITLE_MAX}`}</p>
          <FieldError id="title-error" message={errors.title} />
        </div>
        <div>
          <label htmlFor="description" className="block text-sm font-medium">Description</label>
          <textarea id="description" rows={3} value={description} aria-invalid={Boolean(errors.description)} aria-describedby="description-error" onChange={(e) => setDescription((e.target as HTMLTextAreaElement).value)} className={inputClass(Boolean(errors.description))} />
          <p className="mt-1 text-xs text-gray-500">{`${description.length}/${DESCRIPTION_MAX}`}</p>
          <FieldError id="description-error" message={errors.description} />
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
        <div role="tablist" aria-label="Preview as" className="mt-1 mb-3 flex flex-wrap gap-1">
          {PLATFORMS.map((p) => (
            <button key={p} type="button" role="tab" aria-selected={platform === p} onClick={() => setPlatform(p)} className={`rounded-md px-3 py-1 text-sm ${platform === p ? "bg-gray-900 text-white" : "border border-gray-200"}`}>
              {p}
            </button>
          ))}
        </div>
        <Preview platform={platform} image={image} title={title} description={description} host={host} shortUrl={shortUrl} />
      </section>
    </div>
  );
}
