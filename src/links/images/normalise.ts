// Turns an uploaded JPEG, PNG or WebP into the preview shape: 1200×630, cover-cropped from the centre,
// turned upright as its EXIF says, and re-encoded as JPEG from raw pixels (so EXIF, GPS and every other
// metadata block is gone).
import { decodeJpeg, decodePng, decodeWebp, encodeJpeg, loadCodecs, resize } from "./codecs.ts";
import { applyOrientation, exifOrientation, type Pixels } from "./orientation.ts";
import type { ImageKind } from "./sniff.ts";

export const PREVIEW_WIDTH = 1200;
export const PREVIEW_HEIGHT = 630;

function cropToRatio(image: Pixels, ratio: number): Pixels {
  const { width, height } = image;
  let cropWidth = width;
  let cropHeight = Math.round(width / ratio);
  if (cropHeight > height) {
    cropHeight = height;
    cropWidth = Math.round(height * ratio);
  }
  const left = Math.floor((width - cropWidth) / 2);
  const top = Math.floor((height - cropHeight) / 2);
  if (cropWidth === width && cropHeight === height) return image;
  const data = new Uint8ClampedArray(cropWidth * cropHeight * 4);
  for (let row = 0; row < cropHeight; row++) {
    const start = ((top + row) * width + left) * 4;
    data.set(image.data.subarray(start, start + cropWidth * 4), row * cropWidth * 4);
  }
  return { data, width: cropWidth, height: cropHeight };
}

/** The normalised JPEG, and the source's size as it is seen (upright, before cropping and scaling). */
export type Normalised = { jpeg: Uint8Array; sourceWidth: number; sourceHeight: number };

export async function normaliseImage(bytes: ArrayBuffer, kind: ImageKind): Promise<Normalised> {
  await loadCodecs();
  const orientation = exifOrientation(new Uint8Array(bytes), kind);
  const decoded = (kind === "jpeg" ? await decodeJpeg(bytes) : kind === "png" ? await decodePng(bytes) : await decodeWebp(bytes)) as Pixels;
  if (!decoded || decoded.width < 1 || decoded.height < 1) throw new Error("empty image");
  const upright = applyOrientation(decoded, orientation);
  const cropped = cropToRatio(upright, PREVIEW_WIDTH / PREVIEW_HEIGHT);
  const sized = (await resize(new ImageData(cropped.data, cropped.width, cropped.height), {
    width: PREVIEW_WIDTH,
    height: PREVIEW_HEIGHT,
    method: "lanczos3",
    fitMethod: "stretch",
  })) as Pixels;
  // Transparent PNG/WebP areas become white rather than black in a JPEG.
  const data = sized.data;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3]! / 255;
    if (alpha < 1) {
      data[i] = data[i]! * alpha + 255 * (1 - alpha);
      data[i + 1] = data[i + 1]! * alpha + 255 * (1 - alpha);
      data[i + 2] = data[i + 2]! * alpha + 255 * (1 - alpha);
      data[i + 3] = 255;
    }
  }
  const jpeg = new Uint8Array(await encodeJpeg(new ImageData(data, sized.width, sized.height), { quality: 82 }));
  return { jpeg, sourceWidth: upright.width, sourceHeight: upright.height };
}
