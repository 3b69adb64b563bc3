// Real image files for upload tests, made here rather than committed: PNG by hand, JPEG (with an EXIF GPS
// block) and WebP through the same WebAssembly codecs the server uses.
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

function pixels(width: number, height: number): Uint8ClampedArray<ArrayBuffer> {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([(x * 255) / width, (y * 255) / height, 128, 255], (y * width + x) * 4);
  return data;
}

export function makePng(width: number, height: number): Uint8Array<ArrayBuffer> {
  const rgba = pixels(width, height);
  const raw = new Uint8Array(height * (width * 3 + 1));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set(rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 3), y * (width * 3 + 1) + 1 + x * 3);
  const chunk = (type: string, data: Uint8Array) => {
    const body = new Uint8Array([...new TextEncoder().encode(type), ...data]);
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(body, 4);
    view.setUint32(8 + data.length, crc32(body));
    return out;
  };
  const header = new Uint8Array(13);
  new DataView(header.buffer).setUint32(0, width);
  new DataView(header.buffer).setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())];
  return new Uint8Array(parts.flatMap((p) => [...p]));
}

/** The APP1 EXIF marker with a GPS tag, as a phone camera writes it. */
export const EXIF_MARKER = new TextEncoder().encode("Exif\0\0");

export async function makeJpegWithExif(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  await loadCodecs();
  const jpeg = new Uint8Array(await encodeJpeg(new ImageData(pixels(width, height), width, height), { quality: 80 }));
  // TIFF header (big-endian) + one IFD entry: GPSInfo (0x8825) pointing nowhere in particular.
  const tiff = [0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 0x1a, 0, 0, 0, 0];
  const payload = [...EXIF_MARKER, ...tiff];
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  return new Uint8Array([0xff, 0xd8, ...app1, ...jpeg.subarray(2)]);
}

export async function makeWebp(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  await initWebpEncode({ instantiateWasm: (imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void) => {
    void Bun.file(webpEncWasm).arrayBuffer().then((b) => WebAssembly.instantiate(b, imports)).then((r) => done(r.instance));
    return {};
  } } as never);
  return new Uint8Array(await encodeWebp(new ImageData(pixels(width, height), width, height)));
}

export async function jpegSize(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  await loadCodecs();
  const image = (await decodeJpeg(bytes.slice().buffer)) as { width: number; height: number };
  return { width: image.width, height: image.height };
}

export function contains(haystack: Uint8Array, needle: Uint8Array): boolean {
  outer: for (let i = 0; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}
