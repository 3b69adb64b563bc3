// A link as the API and the pages show it, from its row: no database here, so the CLI can name the shape too.
import { lintPreview } from "../previews/lint.ts";
import type { RenditionId } from "../previews/variants.ts";
import { presentRules, type RulesRow } from "../rules/present.ts";
import { isServed } from "../domains/model.ts";
import { parseQrStyle } from "./qr-style-model.ts";
import { shortUrlOf } from "./url.ts";

/** The columns queries.ts selects for a link, its view counters summed. */
export type LinkRow = {
  id: number;
  linkSlug: string;
  targetUrl: string;
  title: string;
  description: string;
  imageUrl: string | null;
  imageSource: string | null;
  imageBytes: number | null;
  imageSourceWidth: number | null;
  imageSourceHeight: number | null;
  imageSourceBytes: number | null;
  imageSourceUrl: string | null;
  imageSquareUrl: string | null;
  imageXUrl: string | null;
  focalX: number;
  focalY: number;
  xTitle: string | null;
  whatsappDescription: string | null;
  viewsBot: number;
  viewsHuman: number;
  version: number;
  uniqueHumans: number;
  scans: number;
  createdAt: Date;
  deletedAt: Date | null;
  /** The custom domain's hostname (null: the instance host), and its status (src/domains/model.ts). */
  domain: string | null;
  domainStatus: string | null;
  /** "active" or "disabled" (src/safety/), and who disabled it. */
  status: "active" | "disabled";
  disabledReason: string | null;
  /** The link's own QR style as stored (null: its owner's default). */
  qrStyle: string | null;
} & RulesRow;

/** The uploaded file's recorded size, when the link shows an upload (null for an external image or none). */
function sourceImageOf(
  row: Pick<LinkRow, "imageSourceWidth" | "imageSourceHeight" | "imageSourceBytes" | "imageBytes">,
) {
  const { imageSourceWidth: width, imageSourceHeight: height, imageSourceBytes: bytes } = row;
  return width !== null && height !== null && bytes !== null
    ? { width, height, bytes, servedBytes: row.imageBytes }
    : null;
}

/**
 * The image each rendition shows: an upload's own renditions; the one image for all of them when the link has no
 * renditions (an external image, or an upload from before variants); null without an image.
 */
const imagesOf = (
  row: Pick<LinkRow, "imageUrl" | "imageSquareUrl" | "imageXUrl">,
): Record<RenditionId, string | null> => ({
  wide: row.imageUrl,
  square: row.imageUrl && (row.imageSquareUrl ?? row.imageUrl),
  x: row.imageUrl && (row.imageXUrl ?? row.imageUrl),
});

/** A link as the dashboard's rows show it: all of `present` but the lint warnings, which only the editor and the API show. */
export function presentListed(row: LinkRow, userSlug: string, publicUrl: string) {
  const {
    deletedAt,
    imageBytes: _imageBytes,
    imageSourceWidth: _w,
    imageSourceHeight: _h,
    imageSourceBytes: _b,
    imageSourceUrl,
    imageSquareUrl: _square,
    imageXUrl: _x,
    xTitle,
    whatsappDescription,
    goRules: _goRules,
    healthStatus: _status,
    healthCheckedAt: _checkedAt,
    healthHttpStatus: _httpStatus,
    healthFinalUrl: _finalUrl,
    healthFailedUrl: _failedUrl,
    clicks: _clicks,
    domainStatus,
    qrStyle,
    ...rest
  } = row;
  const source = sourceImageOf(row);
  // A domain not verified yet serves nothing: the link is shared at the instance host's address meanwhile.
  const servedOn = row.domain !== null && isServed(domainStatus ?? "") ? row.domain : null;
  return {
    ...rest,
    awaitingDomain: servedOn === null ? row.domain : null,
    shortUrl: shortUrlOf(publicUrl, userSlug, row.linkSlug, 1, servedOn),
    // The address to share now: the newest version's (a platform that cached the card sees a new URL).
    currentShortUrl: shortUrlOf(publicUrl, userSlug, row.linkSlug, row.version, servedOn),
    // url: the kept upright source the focal point is picked on (null for a link from before variants).
    sourceImage: source
      ? { width: source.width, height: source.height, bytes: source.bytes, url: imageSourceUrl }
      : null,
    images: imagesOf(row),
    variants: { x: { title: xTitle }, whatsapp: { description: whatsappDescription } },
    ...presentRules(row),
    qrStyle: parseQrStyle(qrStyle),
    ...(deletedAt ? { deletedAt } : {}),
  };
}

export type ListedLink = ReturnType<typeof presentListed>;

export function present(row: LinkRow, userSlug: string, publicUrl: string) {
  const warnings = lintPreview({
    title: row.title,
    description: row.description,
    imageUrl: row.imageUrl,
    image: sourceImageOf(row),
  });
  return { ...presentListed(row, userSlug, publicUrl), warnings };
}

export type PresentedLink = ReturnType<typeof present>;
