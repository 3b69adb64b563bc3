// Phones store a photo the way the sensor saw it and say in its EXIF Orientation tag how to turn it for
// display; galleries and browsers obey. Our re-encoded preview drops the metadata, so the turn has to be
// applied to the pixels first, or a portrait photo comes out lying on its side.
import type { ImageKind } from "./sniff.ts";

export type Pixels = { data: Uint8ClampedArray<ArrayBuffer>; width: number; height: number };

const ORIENTATION_TAG = 0x0112;

/** The EXIF Orientation (1–8) of a JPEG, PNG (eXIf chunk) or WebP (EXIF chunk); 1, as stored, when absent or unreadable. */
export function exifOrientation(bytes: Uint8Array, kind: ImageKind): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tiff = kind === "jpeg" ? jpegExif(view) : kind === "png" ? pngExif(view) : webpExif(view);
  return tiff ? tiffOrientation(view, tiff.start, tiff.end) : 1;
}

type Span = { start: number; end: number };

const isExifHeader = (view: DataView, at: number) =>
  at + 6 <= view.byteLength && view.getUint32(at) === 0x45786966 && view.getUint16(at + 4) === 0; // "Exif\0\0"

/** The TIFF block inside the first APP1 "Exif" segment, looked for before the image data starts. */
function jpegExif(view: DataView): Span | null {
  let at = 2;
  while (at + 4 <= view.byteLength && view.getUint8(at) === 0xff) {
    const marker = view.getUint8(at + 1);
    if (marker === 0xda || marker === 0xd9) return null; // start of scan / end of image
    const length = view.getUint16(at + 2);
    if (length < 2) return null;
    if (marker === 0xe1 && isExifHeader(view, at + 4))
      return { start: at + 10, end: Math.min(at + 2 + length, view.byteLength) };
    at += 2 + length;
  }
  return null;
}

function pngExif(view: DataView): Span | null {
  let at = 8;
  while (at + 8 <= view.byteLength) {
    const length = view.getUint32(at);
    const type = view.getUint32(at + 4);
    if (type === 0x65584966) return { start: at + 8, end: Math.min(at + 8 + length, view.byteLength) }; // "eXIf"
    if (type === 0x49454e44) return null; // "IEND"
    at += 12 + length;
  }
  return null;
}

function webpExif(view: DataView): Span | null {
  let at = 12;
  while (at + 8 <= view.byteLength) {
    const length = view.getUint32(at + 4, true);
    if (view.getUint32(at) === 0x45584946) {
      // "EXIF": the TIFF block, which some writers prefix with the JPEG-style "Exif\0\0" header.
      const start = isExifHeader(view, at + 8) ? at + 14 : at + 8;
      return { start, end: Math.min(at + 8 + length, view.byteLength) };
    }
    at += 8 + length + (length % 2);
  }
  return null;
}

/** Reads tag 0x0112 from IFD0 of a TIFF block, every offset checked against the block's bounds. */
function tiffOrientation(view: DataView, start: number, end: number): number {
  if (end - start < 8) return 1;
  const order = view.getUint16(start);
  if (order !== 0x4949 && order !== 0x4d4d) return 1; // "II" little-endian, "MM" big-endian
  const little = order === 0x4949;
  const ifd = start + view.getUint32(start + 4, little);
  if (ifd + 2 > end) return 1;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return 1;
    if (view.getUint16(entry, little) !== ORIENTATION_TAG) continue;
    const value = view.getUint16(entry + 8, little);
    return value >= 1 && value <= 8 ? value : 1;
  }
  return 1;
}

/** The pixels as they are meant to be seen: mirrored and/or turned as the orientation says. */
export function applyOrientation(image: Pixels, orientation: number): Pixels {
  if (orientation <= 1 || orientation > 8) return image;
  const { width: w, height: h } = image;
  const swaps = orientation >= 5;
  const outWidth = swaps ? h : w;
  const outHeight = swaps ? w : h;
  // One 32-bit word per RGBA pixel.
  const aligned = image.data.byteOffset % 4 === 0 ? image.data : image.data.slice();
  const source = new Uint32Array(aligned.buffer, aligned.byteOffset, w * h);
  const out = new Uint32Array(outWidth * outHeight);
  // Row y of what is shown is read from the stored pixels at first(y), first(y) + step, first(y) + 2·step…
  const walks: Array<{ first: (y: number) => number; step: number }> = [
    { first: (y) => y * w + w - 1, step: -1 }, // 2: mirrored left to right
    { first: (y) => (h - 1 - y) * w + w - 1, step: -1 }, // 3: turned 180°
    { first: (y) => (h - 1 - y) * w, step: 1 }, // 4: mirrored top to bottom
    { first: (y) => y, step: w }, // 5: mirrored along the main diagonal
    { first: (y) => (h - 1) * w + y, step: -w }, // 6: turned 90° clockwise
    { first: (y) => (h - 1) * w + w - 1 - y, step: -w }, // 7: mirrored along the other diagonal
    { first: (y) => w - 1 - y, step: w }, // 8: turned 90° anticlockwise
  ];
  const { first, step } = walks[orientation - 2]!;
  for (let y = 0, to = 0; y < outHeight; y++)
    for (let x = 0, from = first(y); x < outWidth; x++, from += step) out[to++] = source[from]!;
  return { data: new Uint8ClampedArray(out.buffer), width: outWidth, height: outHeight };
}
