// The link editor: custom slug with availability check, image upload with the focal point the renditions are cut
// around, title, description, per-platform text, target with auto-fill from the page; every validation message
// at its field before any request, a live preview of the card as each platform draws it, and the preview lint
// beside the fields and the mockups. The parts live in src/client/ui/link-form/; the image is one ImageChange
// (src/links/model.ts) kept by a reducer.
import { useEffect, useMemo, useReducer, useRef, useState } from "react";
import { api, refusalOf } from "../src/client/api.ts";
import { toast, toastAfterNavigation } from "../src/client/toast.ts";
import { buttonClass } from "../src/client/ui/Dialog.tsx";
import { PreviewMockups } from "../src/client/ui/PreviewMockups.tsx";
import { PreviewSheet } from "../src/client/ui/link-form/PreviewSheet.tsx";
import { AutoFill } from "../src/client/ui/link-form/AutoFill.tsx";
import { CardTextFields } from "../src/client/ui/link-form/CardTextFields.tsx";
import { fieldErrorsOf, fieldOf, type FieldErrors } from "../src/client/ui/link-form/fields.tsx";
import { linkFormData } from "../src/client/ui/link-form/form-data.ts";
import { ImageField } from "../src/client/ui/link-form/ImageField.tsx";
import {
  imageChoiceFor,
  initialImageChoice,
  shownImage,
  savedImageOf,
  type ImageAction,
} from "../src/client/ui/link-form/image-choice.ts";
import { SlugField } from "../src/client/ui/link-form/SlugField.tsx";
import { DomainField } from "../src/client/ui/link-form/DomainField.tsx";
import { VariantFields, type VariantText } from "../src/client/ui/link-form/VariantFields.tsx";
import { warningsAbout, type LintField } from "../src/client/ui/link-form/warnings.ts";
import { renditionOf } from "../src/client/ui/link-form/rendition.ts";
import { useEditorWarnings } from "../src/client/ui/link-form/use-editor-warnings.ts";
import { RuleFields } from "../src/client/ui/link-form/RuleFields.tsx";
import { rulesDraftOf, rulesErrors, type SavedRules } from "../src/client/ui/link-form/rules-draft.ts";
import { UtmBuilder } from "../src/client/ui/link-form/UtmBuilder.tsx";
import { expiredText } from "../src/rules/model.ts";
import { shortUrlOf } from "../src/links/url.ts";
import type { RenditionId } from "../src/previews/variants.ts";
import { CopyLinkButton } from "../src/client/ui/CopyLinkButton.tsx";
import type { LinkFormProps } from "../src/client/ui/link-form/props.ts";

export type { LinkFormProps };

export default function LinkForm({
  mode,
  link,
  sourceImage,
  customSlugAllowed,
  userSlug,
  publicUrl,
  autoFill,
  domains,
}: LinkFormProps) {
  const saved = savedImageOf(link);
  const [title, setTitle] = useState(link?.title ?? "");
  const [description, setDescription] = useState(link?.description ?? "");
  const [targetUrl, setTargetUrl] = useState(link?.targetUrl ?? "");
  const [slug, setSlug] = useState(link?.linkSlug ?? "");
  const [domain, setDomain] = useState(link?.domain ?? "");
  const [variantText, setVariantText] = useState<VariantText>({
    xTitle: link?.variants.x.title ?? "",
    whatsappDescription: link?.variants.whatsapp.description ?? "",
  });
  const [image, dispatchImage] = useReducer(
    useMemo(() => imageChoiceFor(saved), []),
    null,
    () => initialImageChoice(saved, sourceImage),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [rulesDraft, setRulesDraft] = useState(() => rulesDraftOf(link?.rules ? (link as SavedRules) : null));
  const [ruleErrors, setRuleErrors] = useState<Record<string, string>>({});
  const [slugTaken, setSlugTaken] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** The server's words for the last refused save, kept beside the button after its toast is gone. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // Lint speaks about a field once the user has worked on it, or gone past it (the image comes before the texts);
  // a saved link's fields all count as worked on.
  const [touched, setTouched] = useState<ReadonlySet<LintField>>(
    () => new Set(mode === "edit" ? ["title", "description", "image"] : []),
  );
  const touch = (field: LintField) =>
    setTouched((t) => (t.has(field) && t.has("image") ? t : new Set([...t, field, "image"])));
  const dispatch = (action: ImageAction) => {
    dispatchImage(action);
    if (action.type === "pick" || action.type === "accept") touch("image");
  };
  const setError = (field: keyof FieldErrors) => (message: string | undefined) =>
    setErrors((e) => ({ ...e, [field]: message }));

  useEffect(() => () => void (image.preview && URL.revokeObjectURL(image.preview)), [image.preview]);

  const { xTitle, whatsappDescription } = variantText;
  const variants = { x: { title: xTitle }, whatsapp: { description: whatsappDescription } };
  // Until the picked domain is verified the link is shared at the instance host's address (as the server says).
  const servedOn = domains.some((d) => d.hostname === domain && d.serving) ? domain : null;
  const shortUrl = shortUrlOf(
    publicUrl,
    userSlug,
    slug || (mode === "edit" ? link!.linkSlug : "…"),
    link?.version,
    servedOn,
  );
  const host = useMemo(
    () => (URL.canParse(targetUrl) ? new URL(targetUrl).hostname : new URL(publicUrl).hostname),
    [targetUrl, publicUrl],
  );
  const shown = shownImage(image, saved, sourceImage?.url ?? null);
  const focal = image.change.focal;

  const acceptSuggestedImage = () => {
    dispatch({ type: "accept" });
    if (fileInput.current) fileInput.current.value = "";
    setError("image")(undefined);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (slugTaken) return;
    const invalid = fieldErrorsOf({
      title,
      description,
      targetUrl,
      customLinkSlug: customSlugAllowed ? slug : "",
      variants,
    });
    if (invalid) {
      setErrors(invalid);
      if (invalid.xTitle || invalid.whatsappDescription)
        document.getElementById("per-platform-text")?.setAttribute("open", "");
      return;
    }
    setErrors({});
    const ruleProblems = rulesErrors(rulesDraft);
    setRuleErrors(ruleProblems);
    if (Object.keys(ruleProblems).length > 0) return;
    setSaving(true);
    const form = linkFormData({
      fields: { title, description, targetUrl, customLinkSlug: customSlugAllowed ? slug : "", domain },
      image: image.change,
      savedImageUrl: link?.imageUrl ?? null,
      variants,
      rules: rulesDraft,
    });
    const created = mode === "create";
    try {
      await api(created ? "/api/links" : `/api/links/by-slug/${encodeURIComponent(link!.linkSlug)}`, {
        method: created ? "POST" : "PUT",
        body: form,
      });
      toastAfterNavigation({
        title: "Success!",
        description: created ? "Link created successfully" : "Link updated successfully",
      });
      window.location.assign("/admin");
    } catch (error) {
      // A refusal the server explains is told in its words; the spec's line stays for failures it does not explain.
      const explained = refusalOf(error);
      toast({
        title: "Error",
        description:
          explained?.message ??
          (created ? "Failed to create link. Please try again." : "Failed to update link. Please try again."),
        variant: "destructive",
      });
      setRefusal(explained?.message ?? null);
      // About one field ("targetUrl: This target cannot be linked: …"): also said at that field, without its name.
      if (explained?.field)
        setError(fieldOf(explained.field.split(".")))(explained.message.replace(`${explained.field}: `, ""));
      setSaving(false);
    }
  };

  const rendition = (id: RenditionId) => renditionOf(shown, focal, link?.images, id);
  const warnings = useEditorWarnings(
    {
      title,
      description,
      image: shown.image,
      source: shown.lintSource,
      uploaded: shown.uploaded,
      xTitle,
      whatsappDescription,
    },
    touched,
  );
  return (
    <div className="grid gap-8 lg:grid-cols-2 [&>*]:min-w-0">
      <form
        onSubmit={submit}
        noValidate
        className="space-y-5"
        aria-label={mode === "create" ? "Create link" : "Edit link"}
      >
        {link && (
          <p className="flex flex-wrap items-center gap-2 text-sm" data-testid="share-address">
            <span className="text-gray-600">Address to share:</span>
            <span className="break-all font-medium text-indigo-700">{link.currentShortUrl}</span>
            <CopyLinkButton shortUrl={link.currentShortUrl} />
          </p>
        )}
        <DomainField domain={domain} domains={domains} instanceHost={new URL(publicUrl).host} onDomain={setDomain} />
        <SlugField
          slug={slug}
          onSlug={(next) => {
            setSlug(next);
            setError("customLinkSlug")(undefined);
          }}
          savedSlug={link?.linkSlug ?? null}
          linkId={link?.id ?? null}
          customSlugAllowed={customSlugAllowed}
          userSlug={userSlug}
          error={errors.customLinkSlug}
          onError={setError("customLinkSlug")}
          taken={slugTaken}
          onTaken={setSlugTaken}
        />
        <ImageField
          dispatch={dispatch}
          fileInput={fileInput}
          pickSource={shown.pickSource}
          focal={focal}
          importing={shown.importUrl !== null}
          error={errors.image}
          onError={setError("image")}
          warnings={warningsAbout(warnings, "image")}
        />
        <CardTextFields
          title={title}
          description={description}
          onTitle={(next) => (setTitle(next), touch("title"))}
          onDescription={(next) => (setDescription(next), touch("description"))}
          onLeave={touch}
          errors={errors}
          warnings={warnings}
        />
        <VariantFields
          text={variantText}
          onText={setVariantText}
          startOpen={Boolean(link?.variants.x.title || link?.variants.whatsapp.description)}
        />
        <AutoFill
          targetUrl={targetUrl}
          onTargetUrl={(next) => {
            setTargetUrl(next);
            setError("targetUrl")(undefined);
          }}
          error={errors.targetUrl}
          onError={setError("targetUrl")}
          enabled={autoFill}
          text={{ title, description }}
          onFill={(found) => {
            if (found.title) setTitle(found.title), touch("title");
            if (found.description) setDescription(found.description), touch("description");
          }}
          hasImage={shown.image !== null}
          suggested={image.suggested}
          onOffer={(url) => dispatch({ type: "offer", url })}
          onAccept={acceptSuggestedImage}
        />
        <UtmBuilder targetUrl={targetUrl} onTargetUrl={setTargetUrl} />
        <RuleFields
          draft={rulesDraft}
          onDraft={setRulesDraft}
          errors={ruleErrors}
          hasPassword={Boolean(link?.hasPassword)}
          expired={link?.rules ? expiredText(link as SavedRules, Date.now()) : null}
        />
        {refusal && (
          <p className="text-sm text-red-700" data-testid="save-refused">
            {refusal}
          </p>
        )}
        <div className="flex justify-end gap-2">
          <a href="/admin" className={buttonClass.secondary}>
            Cancel
          </a>
          <button type="submit" className={buttonClass.primary} disabled={saving || Boolean(slugTaken)}>
            {saving ? "Saving…" : mode === "create" ? "Create Link" : "Update Link"}
          </button>
        </div>
      </form>

      <PreviewSheet>
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
      </PreviewSheet>
    </div>
  );
}
