// EXIF Orientation: found in each container we accept, and applied to the pixels the way galleries show them.
import { describe, expect, test } from "bun:test";
import { applyOrientation, exifOrientation } from "../../src/links/images/orientation.ts";
import { EXIF_MARKER, exifTiff, makeJpegWithExif, makePng } from "../helpers/images.ts";

/** A RIFF/WebP file of an extended-format header and an EXIF chunk (odd-sized, so padded), no image data needed. */
function webpWithExif(tiff: Uint8Array, { withHeader }: { withHeader: boolean }): Uint8Array {
  const chunk = (fourcc: string, data: Uint8Array) => {
    const bytes = new Uint8Array(8 + data.length + (data.length % 2));
    bytes.set(new TextEncoder().encode(fourcc));
    new DataView(bytes.buffer).setUint32(4, data.length, true);
    bytes.set(data, 8);
    return bytes;
  };
  const body = [
    ...new TextEncoder().encode("WEBP"),
    ...chunk("VP8X", new Uint8Array(10)),
    ...chunk("EXIF", new Uint8Array([...(withHeader ? EXIF_MARKER : []), ...tiff, 0])),
  ];
  const riff = new Uint8Array(8 + body.length);
  riff.set(new TextEncoder().encode("RIFF"));
  new DataView(riff.buffer).setUint32(4, body.length, true);
  riff.set(body, 8);
  return riff;
}

/** A little-endian TIFF block ("II"), as some cameras write it, with the Orientation as its second tag. */
function littleEndianTiff(orientation: number): Uint8Array {
  return new Uint8Array([
    0x49,
    0x49,
    0x2a,
    0,
    8,
    0,
    0,
    0,
    2,
    0,
    0x0f,
    0x01,
    2,
    0,
    4,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0x12,
    0x01,
    3,
    0,
    1,
    0,
    0,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
  ]);
}

describe("reading the orientation", () => {
  test("from a JPEG's APP1 segment, a PNG's eXIf chunk and a WebP's EXIF chunk", async () => {
    expect(exifOrientation(await makeJpegWithExif(16, 8, { orientation: 6 }), "jpeg")).toBe(6);
    expect(exifOrientation(makePng(16, 8, { exif: exifTiff(8) }), "png")).toBe(8);
    expect(exifOrientation(webpWithExif(exifTiff(3), { withHeader: false }), "webp")).toBe(3);
    expect(exifOrientation(webpWithExif(littleEndianTiff(5), { withHeader: true }), "webp")).toBe(5);
  });

  test("as stored (1) when there is none, or it is out of range, truncated or nonsense", async () => {
    expect(exifOrientation(await makeJpegWithExif(16, 8), "jpeg")).toBe(1);
    expect(exifOrientation(makePng(16, 8), "png")).toBe(1);
    expect(exifOrientation(makePng(16, 8, { exif: exifTiff(9) }), "png")).toBe(1);
    expect(
      exifOrientation(makePng(16, 8, { exif: new Uint8Array([0x4d, 0x4d, 0, 0x2a, 0xff, 0xff, 0xff, 0xff]) }), "png"),
    ).toBe(1);
    const jpeg = await makeJpegWithExif(16, 8, { orientation: 6 });
    for (const cut of [4, 12, 20, 30]) expect(exifOrientation(jpeg.subarray(0, cut), "jpeg")).toBe(1);
    expect(exifOrientation(new Uint8Array([0xff, 0xd8, 0xff, 0xe1, 0, 0]), "jpeg")).toBe(1);
  });
});

describe("applying it", () => {
  // Stored 3 wide, 2 high:  a b c
  //                         d e f
  const stored = {
    data: new Uint8ClampedArray([..."abcdef"].flatMap((c) => [c.charCodeAt(0), 0, 0, 255])),
    width: 3,
    height: 2,
  };
  const shown = (orientation: number) => {
    const image = applyOrientation(stored, orientation);
    const letters = [...image.data].filter((_, i) => i % 4 === 0).map((code) => String.fromCharCode(code));
    return Array.from({ length: image.height }, (_, row) =>
      letters.slice(row * image.width, (row + 1) * image.width).join(""),
    );
  };

  test.each([
    [1, ["abc", "def"]],
    [2, ["cba", "fed"]],
    [3, ["fed", "cba"]],
    [4, ["def", "abc"]],
    [5, ["ad", "be", "cf"]],
    [6, ["da", "eb", "fc"]],
    [7, ["fc", "eb", "da"]],
    [8, ["cf", "be", "ad"]],
  ])("orientation %d shows the rows %p", (orientation, rows) => {
    expect(shown(orientation)).toEqual(rows);
  });
});
