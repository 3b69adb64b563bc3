// The link editor's save as the multipart body POST /api/links and PUT /api/links/by-slug/… read.
import { imageChangeFields, type ImageChange } from "../../../links/model.ts";
import { rulesFields, type RulesDraft } from "./rules-draft.ts";

export function linkFormData({
  fields,
  image,
  savedImageUrl,
  variants,
  rules,
}: {
  fields: { title: string; description: string; targetUrl: string; customLinkSlug: string; domain: string };
  image: ImageChange;
  /** The saved link's image URL (null on create), which an unchanged image keeps. */
  savedImageUrl: string | null;
  variants: { x: { title: string }; whatsapp: { description: string } };
  rules: RulesDraft;
}): FormData {
  const form = new FormData();
  form.append("title", fields.title);
  form.append("description", fields.description);
  form.append("targetUrl", fields.targetUrl);
  form.append("customLinkSlug", fields.customLinkSlug);
  form.append("domain", fields.domain);
  for (const [name, value] of Object.entries(imageChangeFields(image, savedImageUrl))) form.append(name, value);
  if (image.kind === "upload") form.append("image", image.file);
  form.append("variants", JSON.stringify(variants));
  for (const [name, value] of Object.entries(rulesFields(rules))) form.append(name, value);
  return form;
}
