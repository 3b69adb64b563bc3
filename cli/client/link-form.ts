// The multipart form of links create and edit (and import): the fields, an image file, the per-platform options.
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { usageError } from "./http.ts";

const imageMime: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
};

/** The per-platform options of links create/edit. */
export type VariantOptions = { focal?: string; xTitle?: string; whatsappDescription?: string };

/** --focal "x,y": two numbers from 0 to 1 (left/top to right/bottom of the image). */
export function focalPoint(text: string): { x: number; y: number } {
  const parts = text.split(",").map((part) => part.trim());
  const [x, y] = parts.map(Number);
  const valid = (n: number | undefined) => n !== undefined && Number.isFinite(n) && n >= 0 && n <= 1;
  if (parts.length !== 2 || parts.some((part) => part === "") || !valid(x) || !valid(y)) {
    throw usageError(`--focal must be two numbers from 0 to 1, x,y (0,0 is the top left), like 0.3,0.5; got "${text}"`);
  }
  return { x: x!, y: y! };
}

/** Adds --focal, --x-title and --whatsapp-description to a link form (the server checks the texts' lengths); an empty text removes an override. */
export function addVariants(form: FormData, options: VariantOptions): FormData {
  if (options.focal !== undefined) {
    const { x, y } = focalPoint(options.focal);
    form.append("focalX", String(x));
    form.append("focalY", String(y));
  }
  const variants = {
    ...(options.xTitle !== undefined ? { x: { title: options.xTitle } } : {}),
    ...(options.whatsappDescription !== undefined ? { whatsapp: { description: options.whatsappDescription } } : {}),
  };
  if (Object.keys(variants).length > 0) form.append("variants", JSON.stringify(variants));
  return form;
}

export function linkForm(fields: {
  target: string;
  title: string;
  description: string;
  slug?: string;
  domain?: string;
  image?: string;
  imageUrl?: string | null;
  imageImportUrl?: string;
}): FormData {
  const form = new FormData();
  if (fields.imageImportUrl) form.append("imageImportUrl", fields.imageImportUrl);
  form.append("targetUrl", fields.target);
  form.append("title", fields.title);
  form.append("description", fields.description);
  if (fields.slug) form.append("customLinkSlug", fields.slug);
  if (fields.domain) form.append("domain", fields.domain);
  if (fields.imageUrl !== undefined) form.append("imageUrl", fields.imageUrl ?? "");
  if (fields.image) {
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(readFileSync(fields.image));
    } catch {
      throw usageError(`Cannot read image file ${fields.image}`);
    }
    const extension = fields.image.split(".").pop()?.toLowerCase() ?? "";
    form.append(
      "image",
      new File([bytes], basename(fields.image), { type: imageMime[extension] ?? "application/octet-stream" }),
    );
  }
  return form;
}
