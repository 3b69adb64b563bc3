// The link form's rules, messages and limits, shared by the API, the CLI and the link-form island.
import { z } from "zod";
import { badRequest } from "../http/errors.ts";
import { WITHOUT_NUL } from "../http/text.ts";
import { WHATSAPP_DESCRIPTION_MAX, X_TITLE_MAX } from "../previews/variants.ts";
import { RuleFields } from "../rules/model.ts";
import { canonicalUrlField, ENCODED_URL_TOO_LONG, safeHttpUrl } from "./url.ts";

export const TITLE_MAX = 60;
export const DESCRIPTION_MAX = 160;
export const SLUG_MAX = 20;
export const URL_MAX = 2048;
export const SLUG_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Whether a path segment could name a link at all: anything else is simply not found, without a query (a NUL, say,
 * which PostgreSQL refuses in a text parameter). */
export const couldBeLinkSlug = (value: string): boolean => value.length <= SLUG_MAX && SLUG_PATTERN.test(value);

export const isHttpUrl = (value: string) => safeHttpUrl(value) !== null;

/** Form fields arrive as text: an empty or "null" value means "not given". */
export const emptyToNull = (value: unknown) =>
  value === "" || value === "null" || value === "undefined" ? null : value;

export const customLinkSlug = z
  .string()
  .trim()
  .max(SLUG_MAX, "Custom URL must be 20 characters or less")
  .regex(/^[A-Za-z0-9_-]*$/, "Only letters, numbers, underscores and hyphens are allowed");

const FOCAL_MESSAGE = "Focal point must be between 0 and 1";

/** focalX / focalY: a number in 0..1 (form fields arrive as text); absent keeps the current one (a new link: 0.5). */
const focal = z.preprocess((value) => {
  const given = emptyToNull(value);
  if (given === null || given === undefined) return undefined;
  return typeof given === "string" ? Number(given.trim()) : given;
}, z.number(FOCAL_MESSAGE).min(0, FOCAL_MESSAGE).max(1, FOCAL_MESSAGE).optional());

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
export const jsonText = (value: unknown) => {
  const given = emptyToNull(value);
  if (typeof given !== "string") return given ?? undefined;
  try {
    return JSON.parse(given);
  } catch {
    return given;
  }
};

const VARIANTS_MESSAGE = 'Variants must be an object like {"x": {"title": "…"}, "whatsapp": {"description": "…"}}';

/** Per-platform text overrides (docs/decisions/0009); a platform left out keeps its current override. */
export const VariantsInput = z.preprocess(
  jsonText,
  z
    .strictObject(
      {
        x: z
          .strictObject(
            { title: overrideText("X title", X_TITLE_MAX) },
            'X variant must be an object like {"title": "…"}',
          )
          .optional(),
        whatsapp: z
          .strictObject(
            { description: overrideText("WhatsApp description", WHATSAPP_DESCRIPTION_MAX) },
            'WhatsApp variant must be an object like {"description": "…"}',
          )
          .optional(),
      },
      VARIANTS_MESSAGE,
    )
    .optional(),
);
/** GET /api/links/check-slug-availability?slug= */
export const RequestedSlug = customLinkSlug.min(1, "Custom URL is required");
/** …&linkId=: the link being edited, to which its own slug and earlier slugs are free, as saving it allows. */
export const SlugCheckLinkId = z
  .string()
  .regex(/^[1-9]\d{0,14}$/, "linkId must be the id of the link being edited")
  .transform(Number)
  .optional()
  .describe("The link being edited: its own slug and earlier slugs (which it may take back) are free to it");

export const LinkInput = z.object({
  title: z
    .string("Title is required")
    .trim()
    .min(1, "Title is required")
    .max(TITLE_MAX, "Title must be 60 characters or less")
    .regex(WITHOUT_NUL, "Title contains a character that is not allowed"),
  description: z
    .string("Description is required")
    .trim()
    .min(1, "Description is required")
    .max(DESCRIPTION_MAX, "Description must be 160 characters or less")
    .regex(WITHOUT_NUL, "Description contains a character that is not allowed"),
  targetUrl: canonicalUrlField("Please enter a valid URL", `URL ${ENCODED_URL_TOO_LONG}`),
  customLinkSlug: z.preprocess(emptyToNull, customLinkSlug.nullish()),
  imageUrl: z.preprocess(
    emptyToNull,
    z
      .string()
      .trim()
      .max(URL_MAX, "Image URL must be 2048 characters or less")
      .regex(WITHOUT_NUL, "Image URL must be a valid http(s) URL")
      .nullish(),
  ),
  imageSource: z.preprocess(emptyToNull, z.enum(["upload", "ai"], "Image source must be upload or ai").nullish()),
  // An image on the web (e.g. auto-fill's imageUrl) to fetch and store as if uploaded: never hotlinked.
  imageImportUrl: z.preprocess(
    emptyToNull,
    z
      .string("Image import URL must be a valid http(s) URL")
      .trim()
      .max(URL_MAX, "Image import URL must be 2048 characters or less")
      .refine(isHttpUrl, "Image import URL must be a valid http(s) URL")
      .nullish(),
  ),
  focalX: focal,
  focalY: focal,
  variants: VariantsInput,
  ...RuleFields,
  // The custom domain (hostname) the link is served on; null: the instance host; left out on an edit: unchanged.
  domain: z.preprocess(
    emptyToNull,
    z.string("domain must be a hostname").trim().max(300, "domain must be a hostname").nullish(),
  ),
});

export type LinkInput = z.output<typeof LinkInput>;

/** The largest image accepted, uploaded or imported (the editor says so before sending one). */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** A point of the image, 0..1 from the top left, that every crop keeps near its centre. */
export type Focal = { x: number; y: number };
/** Where crops centre when no focal point is given. */
export const FOCAL_CENTRE: Readonly<Focal> = Object.freeze({ x: 0.5, y: 0.5 });

/**
 * What a create or an update does to the link's image, read once from the input by parseImageChange. `focal` is
 * the focal point the link keeps afterwards.
 * keep: the image as it is; refocus: the same image with its crops cut again around a moved focal point; upload:
 * the file sent; import: the image at `url`, fetched and stored as an upload; external: an image address shown as
 * it is; remove: no image any more.
 */
export type ImageChange<F = File> =
  | { kind: "keep"; focal: Focal }
  | { kind: "refocus"; focal: Focal }
  | { kind: "upload"; file: F; focal: Focal }
  | { kind: "import"; url: string; focal: Focal }
  | { kind: "external"; url: string; source: "upload" | "ai"; focal: Focal }
  | { kind: "remove"; focal: Focal };

/** The image fields of a link's input: the form's `imageUrl`, `imageSource`, `imageImportUrl`, `focalX`, `focalY`. */
export type ImageInput = Pick<LinkInput, "imageUrl" | "imageSource" | "imageImportUrl" | "focalX" | "focalY">;
/** The link's image before an update; null on a create. */
export type CurrentImage = { imageUrl: string | null; focal: Focal } | null;

/**
 * The one reading of the image fields. A file or an import brings a new image, cut around the focal point given,
 * else the centre. Otherwise no `imageUrl` field, or the current one, keeps the image (a focal point given that
 * differs from the current one re-cuts it); an empty one removes it; another address shows that image.
 * Sending both a file and an import address is a 400 naming imageImportUrl.
 */
export function parseImageChange<F>(input: ImageInput, file: F | null, current: CurrentImage): ImageChange<F> {
  if (file && input.imageImportUrl)
    throw badRequest("imageImportUrl: Upload an image or import one from an address, not both", "imageImportUrl");
  const given = (fallback: Focal): Focal => ({ x: input.focalX ?? fallback.x, y: input.focalY ?? fallback.y });
  if (file) return { kind: "upload", file, focal: given(FOCAL_CENTRE) };
  if (input.imageImportUrl) return { kind: "import", url: input.imageImportUrl, focal: given(FOCAL_CENTRE) };
  const focal = given(current?.focal ?? FOCAL_CENTRE);
  const url = input.imageUrl ?? null;
  if (input.imageUrl === undefined || url === (current?.imageUrl ?? null)) {
    const moved = current !== null && (focal.x !== current.focal.x || focal.y !== current.focal.y);
    return { kind: moved ? "refocus" : "keep", focal };
  }
  return url === null
    ? { kind: "remove", focal }
    : { kind: "external", url, source: input.imageSource ?? "upload", focal };
}

/**
 * The form fields that ask for `change` (what the editor sends, read back by parseImageChange); `current` is the
 * link's image address before the change. The file travels as the `image` part.
 */
export function imageChangeFields(change: ImageChange<unknown>, current: string | null): Record<string, string> {
  const focal = { focalX: String(change.focal.x), focalY: String(change.focal.y) };
  switch (change.kind) {
    case "keep":
    case "refocus":
      return { imageUrl: current ?? "", imageSource: current ? "upload" : "", ...focal };
    case "upload":
      return { imageUrl: "", imageSource: "upload", ...focal };
    case "import":
      return { imageUrl: "", imageSource: "upload", imageImportUrl: change.url, ...focal };
    case "external":
      return { imageUrl: change.url, imageSource: change.source, ...focal };
    case "remove":
      return { imageUrl: "", imageSource: "", ...focal };
  }
}
