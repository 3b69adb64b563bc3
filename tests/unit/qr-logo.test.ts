// Branded QR codes with a logo, and inverted ones asked for (issue 52, decision 0067): drawn by lean-qr +
// qr-drawing.ts, read back by jsqr; a logo too large for level H is refused with the reason.
import { beforeAll, expect, test } from "bun:test";
import jsQR from "jsqr";
import { rasterise } from "../helpers/qr-raster.ts";
import { decodePng, encodePng, loadPngCodec } from "../../src/links/images/codecs.ts";
import { qrPng, qrSvg, qrUrl, unscannable, type QrLogo, type QrStyle } from "../../src/links/qr.ts";
import { DEFAULT_QR_STYLE, QR_FINDERS, QR_MAX_LOGO_SIZE, QR_SHAPES } from "../../src/links/qr-style-model.ts";

const TEXT = qrUrl("https://lp.example/go/alice/spring-sale");
const COLOURS = [
  ["#000000", "#ffffff"],
  ["#1a237e", "#fff8e1"],
  ["#b71c1c", "#ffffff"],
] as const;

/** A logo as dark as the modules, with a transparent corner: the worst a real logo does to a reader. */
let logo: QrLogo & { href: string };
beforeAll(async () => {
  await loadPngCodec();
  const side = 96;
  const data = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const i = (y * side + x) * 4;
      const ring = Math.hypot(x - side / 2, y - side / 2);
      data.set(ring < side / 2 ? [30, 60, 200, 255] : [0, 0, 0, 0], i);
      if ((x >> 3) % 2 === (y >> 3) % 2 && ring < side / 3) data.set([0, 0, 0, 255], i);
    }
  }
  const png = new Uint8Array(await encodePng({ data, width: side, height: side, colorSpace: "srgb" } as ImageData));
  logo = { png, width: side, height: side, href: `data:image/png;base64,${Buffer.from(png).toString("base64")}` };
});

const decodeSvg = async (svg: string) => {
  const { data, side } = await rasterise(svg);
  return jsQR(data, side, side)?.data;
};
const decodePngCode = async (png: Uint8Array<ArrayBuffer>, size: number) =>
  jsQR((await decodePng(png.buffer)).data as Uint8ClampedArray, size, size)?.data;

for (const shape of QR_SHAPES) {
  for (const finder of QR_FINDERS) {
    test(`shape ${shape}, finder ${finder} with a logo: level H, modules cleared, SVG and PNG decode by jsqr`, async () => {
      for (const [fg, bg] of COLOURS) {
        for (const logoSize of [0.2, QR_MAX_LOGO_SIZE]) {
          const style: QrStyle = { ...DEFAULT_QR_STYLE, fg, bg, shape, finder, ecc: "L", logo: true, logoSize };
          expect(unscannable(style)).toBeUndefined();
          const svg = qrSvg(TEXT, 512, style, logo);
          expect(svg).toContain("<image ");
          expect(await decodeSvg(svg)).toBe(TEXT);
          expect(await decodePngCode(await qrPng(TEXT, 512, style, logo), 512)).toBe(TEXT);
        }
      }
    });
  }
}

test("a logo raises the level to H (a larger code) and clears the modules under it", () => {
  const plain = qrSvg(TEXT, 512, { ...DEFAULT_QR_STYLE, ecc: "L" });
  const withLogo = qrSvg(TEXT, 512, { ...DEFAULT_QR_STYLE, ecc: "L", logo: true, logoSize: 0.3 }, logo);
  const modules = (svg: string) => Number(/viewBox="0 0 (\d+) /.exec(svg)![1]);
  expect(modules(withLogo)).toBeGreaterThan(modules(plain));
  expect(modules(withLogo)).toBe(modules(qrSvg(TEXT, 512, { ...DEFAULT_QR_STYLE, ecc: "H" })));
  // No dark run of the path enters the logo's square.
  const side = modules(withLogo) - 8;
  const box = Math.floor(0.3 * side) - ((side - Math.floor(0.3 * side)) % 2);
  const from = 4 + (side - box) / 2;
  const path = /<path fill="[^"]*" d="([^"]*)"/.exec(withLogo)![1]!;
  for (const [, x, y, w] of path.matchAll(/M(\d+) (\d+)h(\d+)v/g)) {
    const [left, top, right] = [Number(x), Number(y), Number(x) + Number(w)];
    expect(top >= from && top < from + box && right > from && left < from + box).toBe(false);
  }
});

test("a logo too large for level H is refused, naming why and what fits", () => {
  const problem = unscannable({ ...DEFAULT_QR_STYLE, logo: true, logoSize: 0.4 });
  expect(problem).toBe(
    `logoSize 0.4 is too large for error correction H: the logo would cover 16% of the code, at most 15% scans (logoSize ${QR_MAX_LOGO_SIZE} or less)`,
  );
  // Without a logo the size does not matter.
  expect(unscannable({ ...DEFAULT_QR_STYLE, logo: false, logoSize: 0.5 })).toBeUndefined();
});

test("inverted colours scan only when asked for, and still need contrast", async () => {
  const inverted: QrStyle = { ...DEFAULT_QR_STYLE, fg: "#ffffff", bg: "#1a237e" };
  expect(unscannable(inverted)).toContain("or ask for inverted");
  const asked = { ...inverted, inverted: true };
  expect(unscannable(asked)).toBeUndefined();
  expect(await decodePngCode(await qrPng(TEXT, 400, asked), 400)).toBe(TEXT);
  expect(await decodeSvg(qrSvg(TEXT, 512, asked))).toBe(TEXT);
  expect(unscannable({ ...asked, fg: "#cccccc", bg: "#aaaaaa" })).toContain("too little contrast");
});
