// An image rendition as the editor's mockups draw it: the server's crop of the source while editing, else what it serves.
import type { LinkJson } from "../../../links/wire.ts";
import type { RenditionId } from "../../../previews/variants.ts";
import { cropPosition } from "../FocalPicker.tsx";
import type { PreviewImage } from "../PreviewMockups.tsx";
import type { Focal } from "../../../links/model.ts";
import type { shownImage } from "./image-choice.ts";

export function renditionOf(
  shown: ReturnType<typeof shownImage>,
  focal: Focal,
  servedImages: LinkJson["images"] | undefined,
  id: RenditionId,
): PreviewImage {
  const known = { width: shown.lintSource?.width ?? null, height: shown.lintSource?.height ?? null };
  const { pickSource, size, imageUrl } = shown;
  if (pickSource)
    return {
      src: pickSource,
      ...known,
      position: size ? cropPosition(size.width, size.height, id, focal) : undefined,
    };
  const served = imageUrl && (servedImages?.[id] ?? imageUrl);
  return served ? { src: served, ...known } : null;
}
