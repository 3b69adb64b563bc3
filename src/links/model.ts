// The link form's rules and messages (SPEC §5), shared by the API and the link-form island.
import { z } from "zod";
import { WITHOUT_NUL } from "../http/text.ts";
import { WHATSAPP_DESCRIPTION_MAX, X_TITLE_MAX } from "../previews/variants.ts";
import { safeHttpUrl } from "./url.ts";

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;
export const SLUG_MAX = 20;
export const URL_MAX = 2048;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;

export const isHttpUrl = (value: string) => safeHttpUrl(value) !== null;

/** Form fields arrive as text: an empty or "null" value means "not given". */
const emptyToNull = (value: unknown) => (value === "" || value === "null" || value === "undefined" ? null : value);

export const customLinkSlug = z
  .string()
  .trim()
  .max(SLUG_MAX, "Custom URL must be 20 characters or less")
  .regex(/^[A-Za-z0-9_-]*$/, "Only letters, numbers, underscores and hyphens are allowed");

const FOCAL_MESSAGE = "Focal point must be between 0 and 1";

/** focalX / focalY: a number in 0..1 (form fields arrive as text); absent keeps the current one (a new link: 0.5). */
const focal = z.preprocess(
  (value) => {
    const given = emptyToNull(value);
    if (given === null || given === undefined) return undefined;
    return typeof given === "string" ? Number(given.trim()) : given;
  },
  z.number(FOCAL_MESSAGE).min(0, FOCAL_MESSAGE).max(1, FOCAL_MESSAGE).optional(),
);

/** A platform's text override: trimmed, empty or null = none (the link's own text is shown). */
const overrideText = (label: string, max: number) =>
  z.preprocess(
    emptyToNull,
    z
      .string(`${label} must be text`)
      .trim()
      .max(max, `${label} must be ${max} characters or less`)
      .regex(WITHOUT_NUL, `${label} contains a character that is not allowed`)
      .transform((text) => text || null)
      .nullish(),
  );

/** A multipart body carries `variants` as one part holding JSON; a JSON body as a nested object. */
const jsonText = (value: unknown) => {
  const given = emptyToNull(value);
  if (typeof given !== "string") return given ?? undefined;
  try {
    return JSON.parse(given);
  } catch {
    return given;
  }
};

const VARIANTS_MESSAGE = 'Variants must be an object like {"x": {"title": "…"}, "whatsapp": {"description": "…"}}';

/** Per-platform text overrides (issue 20); a platform left out keeps its current override. */
export const VariantsInput = z.preprocess(
  jsonText,
  z
    .strictObject(
      {
        x: z.strictObject({ title: overrideText("X title", X_TITLE_MAX) }, 'X variant must be an object like {"title": "…"}').optional(),
        whatsapp: z.strictObject({ description: overrideText("WhatsApp description", WHATSAPP_DESCRIPTION_MAX) }, 'WhatsApp variant must be an object like {"description": "…"}').optional(),
      },
      VARIANTS_MESSAGE,
    )
    .optional(),
);
/** GET /api/links/check-slug-availability?slug= */
export const RequestedSlug = customLinkSlug.min(1, "Custom URL is required");

export const LinkInput = z.object({
  title: z.string("Title is required").trim().min(1, "Title is required").max(TITLE_MAX, "Title must be 60 characters or less").regex(WITHOUT_NUL, "Title contains a character that is not allowed"),
  description: z
    .string("Description is required")
    .trim()
    .min(1, "Description is required")
    .max(DESCRIPTION_MAX, "Description must be 160 characters or less")
    .regex(WITHOUT_NUL, "Description contains a character that is not allowed"),
  targetUrl: z
    .string("Please enter a valid URL")
    .trim()
    .max(URL_MAX, "URL must be 2048 characters or less")
    .refine(isHttpUrl, "Please enter a valid URL"),
  customLinkSlug: z.preprocess(emptyToNull, customLinkSlug.nullish()),
  imageUrl: z.preprocess(emptyToNull, z.string().trim().max(URL_MAX, "Image URL must be 2048 characters or less").regex(WITHOUT_NUL, "Image URL must be a valid http(s) URL").nullish()),
  imageSource: z.preprocess(emptyToNull, z.enum(["upload", "ai"], "Image source must be upload or ai").nullish()),
  // An image on the web (e.g. auto-fill's imageUrl) to fetch and store as if uploaded: never hotlinked.
  imageImportUrl: z.preprocess(
    emptyToNull,
    z.string("Image import URL must be a valid http(s) URL").trim().max(URL_MAX, "Image import URL must be 2048 characters or less").refine(isHttpUrl, "Image import URL must be a valid http(s) URL").nullish(),
  ),
  focalX: focal,
  focalY: focal,
  variants: VariantsInput,
});

export type LinkInput = z.output<typeof LinkInput>;
