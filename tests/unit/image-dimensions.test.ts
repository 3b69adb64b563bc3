// The size an image's header declares, read without decoding: real files from the codecs, and hand-made headers
// for the forms an attacker would pick (arithmetic-coded JPEG, VP8X canvas, a fake frame header in scan data).
import { describe, expect, test } from "bun:test";
import webpEncWasm from "../../node_modules/@jsquash/webp/codec/enc/webp_enc.wasm" with { type: "file" };
import encodeWebp, { init as initWebpEncode } from "@jsquash/webp/encode";
import { imageDimensions, pixelBudgetMessage, withinPixelBudget } from "../../src/links/images/dimensions.ts";
import { encodeJpeg, loadCodecs } from "../../src/links/images/codecs.ts";
import { makeJpegWithExif, makePng, makeWebp } from "../helpers/images.ts";

const bytesOf = (...parts: Array<number[] | Uint8Array>) => new Uint8Array(parts.flatMap((part) => [...part]));
const u16 = (n: number) => [n >> 8, n & 0xff];
/** A JPEG segment: marker, length, payload. */
const segment = (marker: number, payload: number[]) => [0xff, marker, ...u16(payload.length + 2), ...payload];
/** A frame header's payload: precision, height, width, one component. */
const frame = (width: number, height: number) => [8, ...u16(height), ...u16(width), 1, 1, 0x11, 0];

function webp(fourcc: string, payload: number[]): Uint8Array {
  const chunk = bytesOf(new TextEncoder().encode(fourcc), [payload.length & 0xff, payload.length >> 8, 0, 0], payload);
  return bytesOf(new TextEncoder().encode("RIFF"), [0, 0, 0, 0], new TextEncoder().encode("WEBP"), chunk);
}

describe("imageDimensions", () => {
  test("files the codecs write: PNG, JPEG (EXIF before the frame), baseline JPEG, lossy and lossless WebP", async () => {
    await loadCodecs();
    expect(imageDimensions(makePng(321, 123), "png")).toEqual({ width: 321, height: 123 });
    expect(imageDimensions(await makeJpegWithExif(300, 200, { orientation: 6 }), "jpeg")).toEqual({
      width: 300,
      height: 200,
    });
    const baseline = new Uint8Array(
      await encodeJpeg(new ImageData(new Uint8ClampedArray(64 * 48 * 4), 64, 48), {
        quality: 80,
        baseline: true,
        progressive: false,
      }),
    );
    expect(imageDimensions(baseline, "jpeg")).toEqual({ width: 64, height: 48 });
    expect(imageDimensions(await makeWebp(130, 70), "webp")).toEqual({ width: 130, height: 70 });
    await initWebpEncode({
      instantiateWasm: (imports: WebAssembly.Imports, done: (i: WebAssembly.Instance) => void) => {
        void Bun.file(webpEncWasm)
          .arrayBuffer()
          .then((b) => WebAssembly.instantiate(b, imports))
          .then((r) => done(r.instance));
        return {};
      },
    } as never);
    const lossless = new Uint8Array(
      await encodeWebp(new ImageData(new Uint8ClampedArray(90 * 45 * 4), 90, 45), { lossless: 1 }),
    );
    expect(new TextDecoder().decode(lossless.subarray(12, 16))).toBe("VP8L");
    expect(imageDimensions(lossless, "webp")).toEqual({ width: 90, height: 45 });
  });

  test("JPEG: any frame type counts (here arithmetic-coded), fill bytes are skipped, and nothing after the scan starts", () => {
    const app0 = segment(0xe0, [...new TextEncoder().encode("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    expect(
      imageDimensions(
        bytesOf([0xff, 0xd8], app0, [0xff, 0xff], segment(0xc9, frame(30000, 20000)), segment(0xda, [0])),
        "jpeg",
      ),
    ).toEqual({ width: 30000, height: 20000 });
    // A frame header inside an APP segment is data, not a frame.
    expect(
      imageDimensions(
        bytesOf([0xff, 0xd8], segment(0xe1, segment(0xc0, frame(1, 1))), segment(0xc2, frame(50000, 40000))),
        "jpeg",
      ),
    ).toEqual({ width: 50000, height: 40000 });
    // A scan before any frame header, with a small fake one in its data: unreadable, not 1×1.
    expect(
      imageDimensions(
        bytesOf([0xff, 0xd8], app0, segment(0xda, [0]), [0x12, 0x34], segment(0xc0, frame(1, 1))),
        "jpeg",
      ),
    ).toBeNull();
    expect(imageDimensions(bytesOf([0xff, 0xd8], app0, [0xff, 0xc0, 0, 17, 8]), "jpeg")).toBeNull(); // cut short
    expect(imageDimensions(bytesOf([0xff, 0xd8], [0x00, 0x01, 0x02, 0x03]), "jpeg")).toBeNull();
  });

  test("WebP: the VP8X canvas (24 bits a side), the VP8 and VP8L frame sizes; other first chunks are unreadable", () => {
    expect(imageDimensions(webp("VP8X", [0, 0, 0, 0, 0x1f, 0x4e, 0x00, 0x3f, 0x9c, 0x00]), "webp")).toEqual({
      width: 20000,
      height: 40000,
    });
    expect(imageDimensions(webp("VP8 ", [0, 0, 0, 0x9d, 0x01, 0x2a, 0xff, 0x3f, 0xff, 0x3f]), "webp")).toEqual({
      width: 16383,
      height: 16383,
    });
    expect(imageDimensions(webp("VP8 ", [0, 0, 0, 0x00, 0x01, 0x2a, 0xff, 0x3f, 0xff, 0x3f]), "webp")).toBeNull(); // no start code
    expect(imageDimensions(webp("VP8L", [0x2f, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0, 0, 0]), "webp")).toEqual({
      width: 16384,
      height: 16384,
    });
    expect(imageDimensions(webp("ALPH", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), "webp")).toBeNull();
  });

  test("PNG: IHDR must come first", () => {
    const png = makePng(10, 10);
    png.set(new TextEncoder().encode("tEXt"), 12);
    expect(imageDimensions(png, "png")).toBeNull();
  });
});

describe("the pixel budget", () => {
  test("40 megapixels and 16384 a side; the message says both", () => {
    expect(withinPixelBudget({ width: 8000, height: 5000 })).toBe(true);
    expect(withinPixelBudget({ width: 8000, height: 5001 })).toBe(false);
    expect(withinPixelBudget({ width: 16384, height: 2000 })).toBe(true);
    expect(withinPixelBudget({ width: 16385, height: 1 })).toBe(false);
    expect(pixelBudgetMessage({ width: 10000, height: 10000 })).toBe(
      "Image is 10000×10000 pixels; the most we accept is 40 megapixels and 16384 pixels a side",
    );
  });
});
