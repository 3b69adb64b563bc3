// Turns an uploaded JPEG, PNG or WebP into what cards show: the upright source, kept bounded (long side ≤ 2400 px)
// so that a new focal point can be cut again without a new upload, and one rendition per card shape (wide
// 1200×630, square 1200×1200, X 1200×600), each cover-cropped around the focal point. Everything is re-encoded
// as JPEG from raw pixels (so EXIF, GPS and every other metadata block is gone).
import {
  MAX_RENDITION_BYTES,
  RENDITIONS,
  RENDITION_IDS,
  SOURCE_LONG_SIDE,
  focalCrop,
  type RenditionId,
} from "../../previews/variants.ts";
import { decodeJpeg, decodePng, decodeWebp, encodeJpeg, encodePng, loadCodecs, resize } from "./codecs.ts";
import { applyOrientation, exifOrientation, type Pixels } from "./orientation.ts";
import { areaShrink } from "./area-shrink.ts";
import type { Focal } from "../model.ts";
import type { ImageKind } from "./sniff.ts";

export type Renditions = Record<RenditionId, Uint8Array>;

/**
 * The kept source is never served: a plain baseline JPEG encodes ~3× faster than mozjpeg's progressive default,
 * at a larger size that does not matter here.
 */
const SOURCE_ENCODING = { quality: 85, baseline: true, progressive: false, optimize_coding: false };
/**
 * Tried in turn until a rendition fits MAX_RENDITION_BYTES; the last one is kept whatever its size (only noise
 * needs it). Each rendition starts at the quality the previous one needed: they show the same picture.
 */
const RENDITION_QUALITIES = [82, 72, 62, 52, 42, 32];

function crop(image: Pixels, box: { left: number; top: number; width: number; height: number }): Pixels {
  const { width } = image;
  if (box.width === image.width && box.height === image.height) return image;
  const data = new Uint8ClampedArray(box.width * box.height * 4);
  for (let row = 0; row < box.height; row++) {
    const start = ((box.top + row) * width + box.left) * 4;
    data.set(image.data.subarray(start, start + box.width * 4), row * box.width * 4);
  }
  return { data, width: box.width, height: box.height };
}

/** Lanczos3, after averaging by any whole factor the shrink allows (the resize codec's memory grows with its input). */
async function scale(image: Pixels, width: number, height: number): Promise<Pixels> {
  const factor = Math.floor(Math.min(image.width / width, image.height / height));
  const input =
    factor >= 2 ? areaShrink(image, Math.round(image.width / factor), Math.round(image.height / factor)) : image;
  if (input.width === width && input.height === height) return input;
  return (await resize(new ImageData(input.data, input.width, input.height), {
    width,
    height,
    method: "lanczos3",
    fitMethod: "stretch",
  })) as Pixels;
}

/** Transparent PNG/WebP areas become white rather than black in a JPEG. */
function flattenOnWhite(image: Pixels): void {
  const data = image.data;
  for (let i = 0; i < data.length; i += 4) {
    const alpha = data[i + 3]! / 255;
    if (alpha < 1) {
      data[i] = data[i]! * alpha + 255 * (1 - alpha);
      data[i + 1] = data[i + 1]! * alpha + 255 * (1 - alpha);
      data[i + 2] = data[i + 2]! * alpha + 255 * (1 - alpha);
      data[i + 3] = 255;
    }
  }
}

const encode = async (image: Pixels, options: { quality: number }) =>
  new Uint8Array(await encodeJpeg(new ImageData(image.data, image.width, image.height), options));

/** Every rendition of an upright, opaque source, cut around `focal`; each JPEG under MAX_RENDITION_BYTES where any quality allows. */
async function renderAll(source: Pixels, focal: Focal): Promise<Renditions> {
  const out = {} as Renditions;
  let step = 0;
  for (const id of RENDITION_IDS) {
    const { width, height } = RENDITIONS[id];
    const sized = await scale(
      crop(source, focalCrop(source.width, source.height, width / height, focal.x, focal.y)),
      width,
      height,
    );
    for (; ; step++) {
      out[id] = await encode(sized, { quality: RENDITION_QUALITIES[step]! });
      if (out[id].byteLength <= MAX_RENDITION_BYTES || step === RENDITION_QUALITIES.length - 1) break;
    }
  }
  return out;
}

/** An upload, prepared: the kept source (JPEG), its renditions, and the file's size as it is seen (upright, before any scaling). */
export type Normalised = { source: Uint8Array; renditions: Renditions; sourceWidth: number; sourceHeight: number };

const decode = async (bytes: ArrayBuffer, kind: ImageKind) =>
  (kind === "jpeg" ? await decodeJpeg(bytes) : kind === "png" ? await decodePng(bytes) : await decodeWebp(bytes)) as
    | Pixels
    | undefined;

/** The decoded pixels averaged down to SOURCE_LONG_SIDE as stored (not turned), and the stored size; the full-size pixels are garbage once this returns. */
async function decodeBounded(
  bytes: ArrayBuffer,
  kind: ImageKind,
  longSide = SOURCE_LONG_SIDE,
): Promise<{ pixels: Pixels; width: number; height: number }> {
  const decoded = await decode(bytes, kind);
  if (!decoded || decoded.width < 1 || decoded.height < 1) throw new Error("empty image");
  const { width, height } = decoded;
  const bound = Math.min(1, longSide / Math.max(width, height));
  return {
    pixels: areaShrink(decoded, Math.max(1, Math.round(width * bound)), Math.max(1, Math.round(height * bound))),
    width,
    height,
  };
}

/** The upright, opaque pixels of an upload, their long side bounded, and the file's upright size. */
async function keptPixels(
  bytes: ArrayBuffer,
  kind: ImageKind,
): Promise<{ kept: Pixels; width: number; height: number }> {
  await loadCodecs();
  const orientation = exifOrientation(new Uint8Array(bytes), kind);
  const { pixels, width, height } = await decodeBounded(bytes, kind);
  // The full-size pixels are collected now, before the renditions allocate: what a large image costs is its decode.
  if (pixels.width * pixels.height < width * height) Bun.gc(true);
  // Turned after shrinking: the turn copies fewer pixels. Orientations 5–8 turn a quarter: the width is the stored height.
  const kept = applyOrientation(pixels, orientation);
  flattenOnWhite(kept);
  const turned = orientation >= 5 && orientation <= 8;
  return { kept, width: turned ? height : width, height: turned ? width : height };
}

export async function normaliseImage(bytes: ArrayBuffer, kind: ImageKind, focal: Focal): Promise<Normalised> {
  const { kept, width, height } = await keptPixels(bytes, kind);
  return {
    source: await encode(kept, SOURCE_ENCODING),
    renditions: await renderAll(kept, focal),
    sourceWidth: width,
    sourceHeight: height,
  };
}

/** New renditions from a kept source (a JPEG this module wrote) for a new focal point. */
export async function rerender(source: ArrayBuffer, focal: Focal): Promise<Renditions> {
  await loadCodecs();
  const decoded = (await decodeJpeg(source)) as Pixels;
  if (!decoded || decoded.width < 1 || decoded.height < 1) throw new Error("empty image");
  return renderAll(decoded, focal);
}

/** A QR logo's long side: sharp at the largest print size, where a logo spans at most ~0.4 of 2048 px. */
export const LOGO_LONG_SIDE = 512;

/** A QR code's logo: upright, its long side bounded, transparency kept, re-encoded as PNG (metadata gone). */
export async function normaliseLogo(
  bytes: ArrayBuffer,
  kind: ImageKind,
): Promise<{ png: Uint8Array; width: number; height: number }> {
  await loadCodecs();
  const orientation = exifOrientation(new Uint8Array(bytes), kind);
  const { pixels } = await decodeBounded(bytes, kind, LOGO_LONG_SIDE);
  const upright = applyOrientation(pixels, orientation);
  const png = new Uint8Array(await encodePng(new ImageData(upright.data, upright.width, upright.height)));
  return { png, width: upright.width, height: upright.height };
}
