// Preview lint: what will go wrong with a card on which platform, and what to do about it. Pure functions over
// the card's fields; every platform number comes from platforms.ts. Used by the API (POST /api/links/lint and
// the link JSON's `warnings`), the CLI (`linkprev links lint`) and, later, the editor island (live).
import { isCut, measure, PLATFORMS, platformName, WIDE_RATIO, type PlatformId } from "./platforms.ts";

export type Severity = "info" | "warning" | "error";
export type LintWarning = { rule: string; severity: Severity; platforms: PlatformId[]; message: string };

export type LintImage = {
  /** The source image as uploaded (or as found at the image URL): what LinkPrev crops and scales. */
  width: number;
  height: number;
  bytes: number;
  /** The size of the file crawlers get, when LinkPrev serves a re-encoded copy (uploads); else `bytes`. */
  servedBytes?: number | null;
};

export type LintInput = { title: string; description: string; imageUrl?: string | null; image?: LintImage | null };

/** Every rule id, stable: clients may key on them. */
export const RULES = [
  "x-title-cut",
  "discord-title-bytes",
  "discord-description-bytes",
  "whatsapp-description-long",
  "no-image",
  "image-below-minimum",
  "image-too-small",
  "image-upscaled",
  "image-heavy-crop",
  "whatsapp-image-too-heavy",
  "whatsapp-image-heavy",
  "title-equals-description",
] as const;
export type RuleId = (typeof RULES)[number];

/**
 * The share of a source image a centre crop to 1.91:1 keeps; below this the crop is "heavy" (a 4:3 photo keeps
 * 70 %, a square 52 %). [inference: a source ratio far from 1.91:1]
 */
export const HEAVY_CROP_KEEP = 0.75;

const { x, facebook, discord, whatsapp } = PLATFORMS;
/** The platforms that draw a card for people and have researched facts (the mockup set). */
const CARD_PLATFORMS: PlatformId[] = [
  "x",
  "facebook",
  "linkedin",
  "slack",
  "discord",
  "whatsapp",
  "telegram",
  "imessage",
];

const kb = (bytes: number) => `${Math.round(bytes / 1000)} KB`;
const names = (ids: PlatformId[]) => ids.map(platformName).join(", ");

type Rule = (input: LintInput) => LintWarning | null;

const rules: Record<RuleId, Rule> = {
  "x-title-cut": ({ title }) =>
    isCut(title, x.title)
      ? {
          rule: "x-title-cut",
          severity: "warning",
          platforms: ["x"],
          message: `X lays the title over the image and cuts it after about ${x.title!.max} characters (this one has ${measure(title, "chars")}). Put the important words first or shorten it.`,
        }
      : null,

  "discord-title-bytes": ({ title }) =>
    isCut(title, discord.title)
      ? {
          rule: "discord-title-bytes",
          severity: "warning",
          platforms: ["discord"],
          message: `Discord cuts titles at ${discord.title!.max} bytes of UTF-8 and this one has ${measure(title, "bytes")} (accents and emoji count 2–4 each). Shorten it or use fewer special characters.`,
        }
      : null,

  "discord-description-bytes": ({ description }) =>
    isCut(description, discord.description)
      ? {
          rule: "discord-description-bytes",
          severity: "warning",
          platforms: ["discord"],
          message: `Discord cuts descriptions at ${discord.description!.max} bytes of UTF-8 and this one has ${measure(description, "bytes")}. Shorten it or use fewer special characters.`,
        }
      : null,

  "whatsapp-description-long": ({ description }) =>
    isCut(description, whatsapp.description)
      ? {
          rule: "whatsapp-description-long",
          severity: "info",
          platforms: ["whatsapp"],
          message: `WhatsApp shows one or two lines of description (about ${whatsapp.description!.max} characters; this one has ${measure(description, "chars")}). Say the essential in the first ${whatsapp.description!.max} characters.`,
        }
      : null,

  "no-image": ({ imageUrl, image }) =>
    !imageUrl && !image
      ? {
          rule: "no-image",
          severity: "warning",
          platforms: CARD_PLATFORMS,
          message:
            "The card has no image: X falls back to a small card and WhatsApp and LinkedIn show a bare one. Add a 1200×630 image.",
        }
      : null,

  "image-below-minimum": ({ image }) => {
    if (!image) return null;
    const platforms = CARD_PLATFORMS.filter((id) => {
      const min = PLATFORMS[id].minImage;
      return min !== null && (image.width < min.width || image.height < min.height);
    });
    return platforms.length > 0
      ? {
          rule: "image-below-minimum",
          severity: "error",
          platforms,
          message: `The image is only ${image.width}×${image.height}, below what ${names(platforms)} accept (${platforms.map((id) => `${platformName(id)}: ${PLATFORMS[id].minImage!.width}×${PLATFORMS[id].minImage!.height}`).join(", ")}): ${reencoded(image) ? "LinkPrev's 1200×630 copy of it will be very blurry" : "they may not show it at all"}. Use an image of at least 1200×630.`,
        }
      : null;
  },

  "image-too-small": ({ image }) => {
    if (!image) return null;
    const platforms = CARD_PLATFORMS.filter((id) => {
      const min = PLATFORMS[id].largeCardMin;
      return min !== null && (image.width < min.width || image.height < min.height);
    });
    return platforms.length > 0
      ? {
          rule: "image-too-small",
          severity: "warning",
          platforms,
          message: `The image is only ${image.width}×${image.height}, too small for the large card on ${names(platforms)} (${platforms.map((id) => `${platformName(id)}: ${largeCardRule(id)}`).join("; ")}); it shows small or blurry. Use an image of at least 1200×630.`,
        }
      : null;
  },

  "image-upscaled": ({ image }) => {
    if (!image || rules["image-too-small"]({ title: "", description: "", image })) return null;
    const best = facebook.bestImage!;
    return image.width < best.width || image.height < best.height
      ? {
          rule: "image-upscaled",
          severity: "info",
          platforms: CARD_PLATFORMS.filter((id) => PLATFORMS[id].bestImage !== null),
          message: `The image is ${image.width}×${image.height}; LinkPrev scales it up to ${best.width}×${best.height}, so it may look soft on large cards. Use an image of at least ${best.width}×${best.height} for a sharp card.`,
        }
      : null;
  },

  "image-heavy-crop": ({ image }) => {
    if (!image || image.width < 1 || image.height < 1) return null;
    const ratio = image.width / image.height;
    const kept = Math.min(ratio, WIDE_RATIO) / Math.max(ratio, WIDE_RATIO);
    return kept < HEAVY_CROP_KEEP
      ? {
          rule: "image-heavy-crop",
          severity: "warning",
          platforms: CARD_PLATFORMS.filter((id) => PLATFORMS[id].imageRatio !== null),
          message: `The image is ${image.width}×${image.height} (${ratio.toFixed(2)}:1); cards are 1.91:1, so the centre crop cuts away ${Math.round((1 - kept) * 100)}% of it (${ratio < WIDE_RATIO ? "top and bottom" : "left and right"}). Use a 1200×630 image or keep the subject in the centre.`,
        }
      : null;
  },

  "whatsapp-image-too-heavy": ({ image }) => {
    const bytes = image ? (image.servedBytes ?? image.bytes) : null;
    return bytes !== null && bytes > whatsapp.maxImageBytes!
      ? {
          rule: "whatsapp-image-too-heavy",
          severity: "error",
          platforms: ["whatsapp"],
          message: `The image file is ${kb(bytes)}; WhatsApp shows no image over ${kb(whatsapp.maxImageBytes!)}. Upload the image to LinkPrev (it re-encodes it) or use a lighter file, ideally under ${kb(whatsapp.reliableImageBytes!)}.`,
        }
      : null;
  },

  "whatsapp-image-heavy": ({ image }) => {
    const bytes = image ? (image.servedBytes ?? image.bytes) : null;
    return bytes !== null && bytes > whatsapp.reliableImageBytes! && bytes <= whatsapp.maxImageBytes!
      ? {
          rule: "whatsapp-image-heavy",
          severity: "warning",
          platforms: ["whatsapp"],
          message: `The image file is ${kb(bytes)}; WhatsApp documents ${kb(whatsapp.maxImageBytes!)} but images over about ${kb(whatsapp.reliableImageBytes!)} are often left out. Use a lighter file (a simpler image compresses better).`,
        }
      : null;
  },

  "title-equals-description": ({ title, description }) =>
    title.trim() !== "" && normalise(title) === normalise(description)
      ? {
          rule: "title-equals-description",
          severity: "warning",
          platforms: CARD_PLATFORMS.filter((id) => id !== "x" && id !== "linkedin" && id !== "imessage"),
          message:
            "The description repeats the title, so cards that show both say the same thing twice. Use the description to add something: what the reader gets, or why it matters.",
        }
      : null,
};

/** LinkPrev serves its own 1200×630 JPEG of this image (an upload), not the file itself. */
const reencoded = (image: LintImage) => image.servedBytes !== undefined && image.servedBytes !== null;

const normalise = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();

function largeCardRule(id: PlatformId): string {
  const min = PLATFORMS[id].largeCardMin!;
  return min.height > 0 ? `at least ${min.width}×${min.height}` : `at least ${min.width} px wide`;
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Every warning for a card, errors first, then in RULES order. */
export function lintPreview(input: LintInput): LintWarning[] {
  const found: LintWarning[] = [];
  for (const id of RULES) {
    const warning = rules[id](input);
    if (warning) found.push(warning);
  }
  return found.sort((a, b) => ORDER[a.severity] - ORDER[b.severity]);
}

/** One rule alone (tests and the editor's per-field hints). */
export const lintRule = (id: RuleId, input: LintInput): LintWarning | null => rules[id](input);
