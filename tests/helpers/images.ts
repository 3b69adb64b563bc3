// Real image files for upload tests, made here rather than committed: PNG by hand, JPEG (with an EXIF GPS
// block and, when asked, an Orientation) and WebP through the same WebAssembly codecs the server uses.
import { deflateSync } from "node:zlib";
import webpEncWasm from "../../node_modules/@jsquash/webp/codec/enc/webp_enc.wasm" with { type: "file" };
import encodeWebp, { init as initWebpEncode } from "@jsquash/webp/encode";
import { decodeJpeg, encodeJpeg, loadCodecs } from "../../src/links/images/codecs.ts";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function gradient(width: number, height: number): Uint8ClampedArray<ArrayBuffer> {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([(x * 255) / width, (y * 255) / height, 128, 255], (y * width + x) * 4);
  return data;
}

/** The four quarters of a picture, clockwise from the top left. */
export const QUARTER_COLOURS = {
  red: [255, 0, 0],
  green: [0, 255, 0],
  white: [255, 255, 255],
  blue: [0, 0, 255],
} as const;
export type QuarterColour = keyof typeof QUARTER_COLOURS;

/** Red, green / blue, white quarters: which way up an image came out is plain from four samples. */
function quarters(width: number, height: number): Uint8ClampedArray<ArrayBuffer> {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const colour: QuarterColour =
        y < height / 2 ? (x < width / 2 ? "red" : "green") : x < width / 2 ? "blue" : "white";
      data.set([...QUARTER_COLOURS[colour], 255], (y * width + x) * 4);
    }
  return data;
}

/** Pseudo-random pixels (the same every run): the worst case for a JPEG's size. */
function noise(width: number, height: number): Uint8ClampedArray<ArrayBuffer> {
  const data = new Uint8ClampedArray(width * height * 4);
  let seed = 42;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = (i & 3) === 3 ? 255 : seed >>> 24;
  }
  return data;
}

type Picture = { pattern?: "gradient" | "quarters" | "noise" };
const PATTERNS = { gradient, quarters, noise };
const paint = (width: number, height: number, { pattern = "gradient" }: Picture) => PATTERNS[pattern](width, height);

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A PNG, with an eXIf chunk when `exif` (a TIFF block) is given. */
export function makePng(
  width: number,
  height: number,
  options: Picture & { exif?: Uint8Array } = {},
): Uint8Array<ArrayBuffer> {
  const rgba = paint(width, height, options);
  const raw = new Uint8Array(height * (width * 3 + 1));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      raw.set(rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 3), y * (width * 3 + 1) + 1 + x * 3);
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    ...(options.exif ? [pngChunk("eXIf", options.exif)] : []),
    pngChunk("IDAT", deflateSync(raw)),
    pngChunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(parts.flatMap((p) => [...p]));
}

/**
 * A PNG of `width`×`height` black RGB pixels: a few hundred KB at most, however large (6000×6000 is 105 KB), and
 * decoded in full like any photo of that size.
 */
export function blackPng(width: number, height: number): Uint8Array<ArrayBuffer> {
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(new Uint8Array(height * (width * 3 + 1)), { level: 9 })),
    pngChunk("IEND", new Uint8Array()),
  ];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (out.set(part, at), at + part.length), 0);
  return out;
}

/** The APP1 EXIF marker, as a phone camera writes it. */
export const EXIF_MARKER = new TextEncoder().encode("Exif\0\0");

/** A big-endian TIFF block whose first directory holds an Orientation (when given) and a GPSInfo tag. */
export function exifTiff(orientation?: number): Uint8Array {
  const entries = [
    ...(orientation ? [[0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0]] : []),
    [0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0x1a],
  ];
  return new Uint8Array([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, entries.length, ...entries.flat(), 0, 0, 0, 0]);
}

/** A JPEG with an APP1 EXIF segment (GPS, and an Orientation when given) before the image data. */
export async function makeJpegWithExif(
  width: number,
  height: number,
  options: Picture & { orientation?: number } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  await loadCodecs();
  const jpeg = new Uint8Array(
    await encodeJpeg(new ImageData(paint(width, height, options), width, height), { quality: 90 }),
  );
  const payload = [...EXIF_MARKER, ...exifTiff(options.orientation)];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  return new Uint8Array([0xff, 0xd8, ...app1, ...jpeg.subarray(2)]);
}

export async function makeWebp(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  await initWebpEncode({
    instantiateWasm: (imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void) => {
      void Bun.file(webpEncWasm)
        .arrayBuffer()
        .then((b) => WebAssembly.instantiate(b, imports))
        .then((r) => done(r.instance));
      return {};
    },
  } as never);
  return new Uint8Array(await encodeWebp(new ImageData(gradient(width, height), width, height)));
}

export async function decodeJpegPixels(
  bytes: Uint8Array,
): Promise<{ data: Uint8ClampedArray; width: number; height: number }> {
  await loadCodecs();
  return (await decodeJpeg(bytes.slice().buffer)) as { data: Uint8ClampedArray; width: number; height: number };
}

export async function jpegSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const { width, height } = await decodeJpegPixels(bytes);
  return { width, height };
}

/** Which of the quarter colours the pixel at (x, y) is nearest to. */
export function nearestQuarterColour(
  image: { data: Uint8ClampedArray; width: number },
  x: number,
  y: number,
): QuarterColour {
  const at = (y * image.width + x) * 4;
  const distance = (rgb: readonly number[]) =>
    rgb.reduce((sum, value, i) => sum + (value - image.data[at + i]!) ** 2, 0);
  return (Object.keys(QUARTER_COLOURS) as QuarterColour[]).reduce((best, colour) =>
    distance(QUARTER_COLOURS[colour]) < distance(QUARTER_COLOURS[best]) ? colour : best,
  );
}

export function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
