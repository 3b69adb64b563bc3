// Branded QR codes (issue 52, decision 0062): every style the API offers is drawn by lean-qr + qr-drawing.ts and read
// back by jsqr, an independent decoder; styles that would not scan are refused with the reason.
import { expect, test } from "bun:test";
import jsQR from "jsqr";
import { rasterise } from "../helpers/qr-raster.ts";
import { decodePng, loadPngCodec } from "../../src/links/images/codecs.ts";
import { qrPng, qrSvg, qrUrl, unscannable, type QrStyle } from "../../src/links/qr.ts";
import { DEFAULT_QR_STYLE, QR_ECC_LEVELS } from "../../src/links/qr-style-model.ts";

const TEXT = qrUrl("https://lp.example/go/alice/spring-sale");
const SHAPES = ["square", "rounded", "dots"] as const;
const FINDERS = ["square", "rounded", "dot"] as const;
const COLOURS = [
  ["#000000", "#ffffff"],
  ["#1a237e", "#fff8e1"],
  ["#b71c1c", "#ffffff"],
  ["#004d40", "#e0f2f1"],
] as const;

for (const shape of SHAPES) {
  for (const finder of FINDERS) {
    test(`shape ${shape}, finder ${finder}: every colour pair, SVG and PNG, decodes by jsqr to the short URL`, async () => {
      await loadPngCodec();
      for (const [fg, bg] of COLOURS) {
        for (const ecc of QR_ECC_LEVELS) {
          const style: QrStyle = { ...DEFAULT_QR_STYLE, fg, bg, shape, finder, ecc };
          expect(unscannable(style)).toBeUndefined();
          const svg = qrSvg(TEXT, 512, style);
          expect(svg).toContain(`fill="${bg}"`);
          const { data, side } = await rasterise(svg);
          expect(jsQR(data, side, side)?.data).toBe(TEXT);
          const png = await decodePng((await qrPng(TEXT, 400, style)).buffer);
          expect(jsQR(png.data as Uint8ClampedArray, 400, 400)?.data).toBe(TEXT);
        }
      }
    });
  }
}

test("a margin of 2 modules still scans", async () => {
  const style: QrStyle = { ...DEFAULT_QR_STYLE, shape: "dots", finder: "dot", margin: 2 };
  const png = await decodePng((await qrPng(TEXT, 300, style)).buffer);
  expect(jsQR(png.data as Uint8ClampedArray, 300, 300)?.data).toBe(TEXT);
});

test("styles that would not scan are refused with the reason", () => {
  const base = DEFAULT_QR_STYLE;
  expect(unscannable({ ...base, fg: "#ffffff", bg: "#000000" })).toContain("lighter than bg");
  expect(unscannable({ ...base, fg: "#999999", bg: "#ffffff" })).toContain("too little contrast to scan: 2.85:1");
  expect(unscannable({ ...base, fg: "#ff0000", bg: "#00ff00" })).toContain("too little contrast");
  expect(unscannable({ ...base, fg: "#767676", bg: "#ffffff" })).toBeUndefined();
});
