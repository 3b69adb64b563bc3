// An image's size as its header declares it, read before any decoder sees the bytes: a 100 KB PNG can declare
// 20000×20000 pixels, and the WebAssembly codecs would then allocate gigabytes (their memory never shrinks).
// Hand-written rather than the image-size package: that one knows only JPEG SOF0–2 and reads on through the
// compressed scan data, so an arithmetic-coded JPEG (which mozjpeg decodes) could hide its real frame size.
import type { ImageKind } from "./sniff.ts";

export type Dimensions = { width: number; height: number };

/** The most pixels, and the longest side, an upload may have: 40 MP is 160 MB of RGBA per copy while decoding. */
export const MAX_IMAGE_PIXELS = 40_000_000;
export const MAX_IMAGE_SIDE = 16_384;

export const withinPixelBudget = ({ width, height }: Dimensions) =>
  width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE && width * height <= MAX_IMAGE_PIXELS;

export const pixelBudgetMessage = ({ width, height }: Dimensions) =>
  `Image is ${width}×${height} pixels; the most we accept is ${MAX_IMAGE_PIXELS / 1_000_000} megapixels and ${MAX_IMAGE_SIDE} pixels a side`;

/** The declared width and height of a JPEG, PNG or WebP (as stored, before any EXIF turn); null when the header is unreadable. */
export function imageDimensions(bytes: Uint8Array, kind: ImageKind): Dimensions | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return kind === "jpeg" ? jpegSize(view) : kind === "png" ? pngSize(view) : webpSize(view);
}

/** IHDR must be the first chunk; its first two fields are width and height. */
function pngSize(view: DataView): Dimensions | null {
  if (view.byteLength < 24 || view.getUint32(12) !== 0x49484452) return null; // "IHDR"
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * The frame header (any SOFn: baseline, progressive, lossless, arithmetic) met before the first scan; markers
 * are walked by their lengths and never searched for, so nothing inside a segment or the scan data counts.
 */
function jpegSize(view: DataView): Dimensions | null {
  let at = 2;
  while (at + 4 <= view.byteLength) {
    if (view.getUint8(at) !== 0xff) return null;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // no length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null; // a scan or the end before any frame header
    const length = view.getUint16(at + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame)
      return at + 9 <= view.byteLength ? { height: view.getUint16(at + 5), width: view.getUint16(at + 7) } : null;
    at += 2 + length;
  }
  return null;
}

/** The first chunk says: VP8X (the canvas), VP8 (lossy key frame) or VP8L (lossless). */
function webpSize(view: DataView): Dimensions | null {
  if (view.byteLength < 30) return null;
  const chunk = view.getUint32(12);
  if (chunk === 0x56503858) {
    // "VP8X": canvas width − 1 and height − 1, 24 bits each, little-endian.
    const u24 = (at: number) => view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getUint8(at + 2) << 16);
    return { width: u24(24) + 1, height: u24(27) + 1 };
  }
  if (chunk === 0x56503820) {
    // "VP8 ": a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height (2 bits of scale each).
    if (view.getUint8(23) !== 0x9d || view.getUint8(24) !== 0x01 || view.getUint8(25) !== 0x2a) return null;
    return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  }
  if (chunk === 0x5650384c) {
    // "VP8L": the signature 0x2f, then width − 1 and height − 1 in 14 bits each, least significant bit first.
    if (view.getUint8(20) !== 0x2f) return null;
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return null;
}
