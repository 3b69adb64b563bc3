// Per-platform card variants (docs/decisions/0009): the one message in the shape each platform draws. Three image
// renditions cut from one kept source around its focal point, and two short text overrides. Pure data, no
// server imports: /go, the image worker, the API and (later) the editor island read it.
import { PLATFORMS, WIDE_RATIO, type PlatformId } from "./platforms.ts";

/** The image shapes LinkPrev renders from an upload. */
export type RenditionId = "wide" | "square" | "x";
export const RENDITION_IDS: readonly RenditionId[] = ["wide", "square", "x"];

/** Pixel size of each rendition: 1200×630 (1.91:1), 1200×1200, and X's 2:1. */
export const RENDITIONS: Readonly<Record<RenditionId, { width: number; height: number }>> = {
  wide: { width: 1200, height: Math.round(1200 / WIDE_RATIO) },
  square: { width: 1200, height: 1200 },
  x: { width: PLATFORMS.x.bestImage!.width, height: PLATFORMS.x.bestImage!.height },
};

/**
 * The heaviest rendition allowed: WhatsApp's reliable ceiling (~300 KB; its official limit is 600 KB), since
 * any card may be shared there. The encoder steps the quality down until a rendition fits.
 */
export const MAX_RENDITION_BYTES = PLATFORMS.whatsapp.reliableImageBytes ?? PLATFORMS.whatsapp.maxImageBytes!;

/** The kept source of an upload is bounded to this long side: enough for any crop at 1200 px. */
export const SOURCE_LONG_SIDE = 2400;

/** Text overrides: X overlays a short title on the image; WhatsApp shows about 80 characters of description. */
export const X_TITLE_MAX = PLATFORMS.x.title!.max;
export const WHATSAPP_DESCRIPTION_MAX = PLATFORMS.whatsapp.description!.max;

/**
 * A card variant: which rendition and which text a crawler gets. The rendered page is cached per variant, so
 * there are as few as the platforms need: "wide" (everyone else, and unknown crawlers), "square" (Telegram),
 * "x" (X rendition and title), "whatsapp" (square rendition and description).
 */
export type CardVariant = "wide" | "square" | "x" | "whatsapp";

export const VARIANT_RENDITION: Readonly<Record<CardVariant, RenditionId>> = {
  wide: "wide",
  square: "square",
  x: "x",
  whatsapp: "square",
};

const PLATFORM_VARIANT: Partial<Record<PlatformId, CardVariant>> = { x: "x", whatsapp: "whatsapp", telegram: "square" };

/** The variant a platform's crawler gets (null or unknown platform: the wide default). */
export const variantForPlatform = (platform: string | null): CardVariant =>
  platform ? (PLATFORM_VARIANT[platform as PlatformId] ?? "wide") : "wide";

/** A focal point's crop of a `width`×`height` image to `ratio`: the biggest box of that shape, the point as near its centre as the image allows. */
export function focalCrop(width: number, height: number, ratio: number, focalX: number, focalY: number) {
  let cropWidth = width;
  let cropHeight = Math.round(width / ratio);
  if (cropHeight > height) {
    cropHeight = height;
    cropWidth = Math.min(width, Math.round(height * ratio));
  }
  const clamp = (value: number, max: number) => Math.min(Math.max(value, 0), max);
  const left = clamp(Math.round(focalX * width - cropWidth / 2), width - cropWidth);
  const top = clamp(Math.round(focalY * height - cropHeight / 2), height - cropHeight);
  return { left, top, width: cropWidth, height: cropHeight };
}
