// A link's new image, from an upload or an import: stored with its renditions, and the link fields it sets.
import { AppError, badRequest } from "../../http/errors.ts";
import type { FetchedImage } from "../../safe-fetch/fetcher.ts";
import type { LinkDeps } from "../deps.ts";
import { MAX_IMAGE_BYTES, type Focal, type ImageChange } from "../model.ts";
import { ImageTooLarge, type PreparedImage, type StoredImage, type StoredRenditions } from "./store.ts";

/** The stored upload's renditions, kept source and sizes (the preview lint reads them); all null without an upload. */
export const uploadFields = (image: StoredImage | null) => ({
  imageSourceUrl: image?.sourceUrl ?? null,
  imageSquareUrl: image?.urls.square ?? null,
  imageXUrl: image?.urls.x ?? null,
  imageWidth: image?.width ?? null,
  imageHeight: image?.height ?? null,
  imageBytes: image?.bytes ?? null,
  imageSourceWidth: image?.source.width ?? null,
  imageSourceHeight: image?.source.height ?? null,
  imageSourceBytes: image?.source.bytes ?? null,
});

/** The link fields of a newly stored upload. */
export const newImageFields = (image: StoredImage) => ({
  imageUrl: image.url,
  imageSource: "upload" as const,
  ...uploadFields(image),
});

/** New renditions in place of a link's current ones. */
export const renditionFields = (stored: StoredRenditions) => ({
  imageUrl: stored.urls.wide,
  imageSquareUrl: stored.urls.square,
  imageXUrl: stored.urls.x,
  imageBytes: stored.wideBytes,
});

/**
 * An image from the web, fetched through the safe fetcher and normalised exactly as an upload of the same bytes
 * would be. Refusals, and bytes that are no JPEG, PNG or WebP, are 422s naming imageImportUrl.
 */
async function importImage(deps: LinkDeps, url: string, focal: Focal): Promise<PreparedImage> {
  if (!deps.fetcher)
    throw badRequest("imageImportUrl: Importing images is turned off on this server", "imageImportUrl");
  let fetched: FetchedImage | undefined;
  try {
    fetched = await deps.fetcher.fetchImage(url, MAX_IMAGE_BYTES);
    return await deps.images.prepare(new File([fetched.bytes], "imported", { type: fetched.contentType }), focal);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Too many pixels is the same 400 an upload of those bytes gets, not a failed fetch.
    if (error instanceof ImageTooLarge) throw badRequest(`imageImportUrl: ${error.message}`, "imageImportUrl");
    const reason = fetched ? "The image at that address is not a JPEG, PNG or WebP image" : error.message;
    throw new AppError(422, `imageImportUrl: ${reason}`, "imageImportUrl");
  }
}

/** The uploaded file, or the imported image, stored with its renditions cut around its focal point; null for any other change. */
export async function storeUpload(deps: LinkDeps, change: ImageChange): Promise<StoredImage | null> {
  if (change.kind === "upload") return deps.images.save(await deps.images.prepare(change.file, change.focal));
  return change.kind === "import" ? deps.images.save(await importImage(deps, change.url, change.focal)) : null;
}
