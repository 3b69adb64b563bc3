// Branded QR codes (issue 52, decision 0062): every style the API offers is drawn by lean-qr + qr-drawing.ts and read
// back by jsqr, an independent decoder; styles that would not scan are refused with the reason.
import { expect, test } from "bun:test";
import jsQR from "jsqr";
import { decodePng, loadPngCodec } from "../../src/links/images/codecs.ts";
import { qrPng, qrSvg, qrUrl, unscannable, type QrStyle } from "../../src/links/qr.ts";

const TEXT = qrUrl("https://lp.example/go/alice/spring-sale");
const SHAPES = ["square", "rounded", "dots"] as const;
const FINDERS = ["square", "rounded", "dot"] as const;
const COLOURS = [
  ["#000000", "#ffffff"],
  ["#1a237e", "#fff8e1"],
  ["#b71c1c", "#ffffff"],
  ["#004d40", "#e0f2f1"],
] as const;

const hex = (c: string) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));

/** An SVG rasteriser of its own (not the PNG painter): the background, the path's runs, and rects with rx. */
function rasterise(svg: string, scale = 6): { data: Uint8ClampedArray; side: number } {
  const modules = Number(/viewBox="0 0 (\d+) /.exec(svg)![1]);
  const side = modules * scale;
  const data = new Uint8ClampedArray(side * side * 4);
  const paint = (x: number, y: number, w: number, h: number, r: number, colour: string) => {
    const [red, green, blue] = hex(colour);
    for (let row = Math.floor(y * scale); row < Math.ceil((y + h) * scale); row++) {
      for (let col = Math.floor(x * scale); col < Math.ceil((x + w) * scale); col++) {
        const px = (col + 0.5) / scale - x;
        const py = (row + 0.5) / scale - y;
        const dx = Math.max(r - px, 0, px - (w - r));
        const dy = Math.max(r - py, 0, py - (h - r));
        if (dx * dx + dy * dy > r * r) continue;
        data.set([red!, green!, blue!, 255], (row * side + col) * 4);
      }
    }
  };
  for (const [, attrs] of svg.matchAll(/<rect ([^>]*)\/>/g)) {
    const a = (name: string) => new RegExp(`(?:^| )${name}="([^"]*)"`).exec(attrs!)?.[1];
    paint(
      Number(a("x") ?? 0),
      Number(a("y") ?? 0),
      Number(a("width")),
      Number(a("height")),
      Number(a("rx") ?? 0),
      a("fill")!,
    );
  }
  const path = /<path fill="([^"]*)" d="([^"]*)"/.exec(svg)!;
  for (const [, x, y, w, h] of path[2]!.matchAll(/M(\d+) (\d+)h(\d+)v(\d+)h-\d+z/g))
    paint(Number(x), Number(y), Number(w), Number(h), 0, path[1]!);
  return { data, side };
}

for (const shape of SHAPES) {
  for (const finder of FINDERS) {
    test(`shape ${shape}, finder ${finder}: every colour pair, SVG and PNG, decodes by jsqr to the short URL`, async () => {
      await loadPngCodec();
      for (const [fg, bg] of COLOURS) {
        for (const ecc of ["L", "H"] as const) {
          const style: QrStyle = { fg, bg, shape, finder, margin: 4, ecc };
          expect(unscannable(style)).toBeUndefined();
          const svg = qrSvg(TEXT, 512, style);
          expect(svg).toContain(`fill="${bg}"`);
          const { data, side } = rasterise(svg);
          expect(jsQR(data, side, side)?.data).toBe(TEXT);
          const png = await decodePng((await qrPng(TEXT, 400, style)).buffer);
          expect(jsQR(png.data as Uint8ClampedArray, 400, 400)?.data).toBe(TEXT);
        }
      }
    });
  }
}

test("a margin of 2 modules still scans", async () => {
  const style: QrStyle = { fg: "#000000", bg: "#ffffff", shape: "dots", finder: "dot", margin: 2, ecc: "M" };
  const png = await decodePng((await qrPng(TEXT, 300, style)).buffer);
  expect(jsQR(png.data as Uint8ClampedArray, 300, 300)?.data).toBe(TEXT);
});

test("styles that would not scan are refused with the reason", () => {
  const base: QrStyle = { fg: "#000000", bg: "#ffffff", shape: "square", finder: "square", margin: 4, ecc: "M" };
  expect(unscannable({ ...base, fg: "#ffffff", bg: "#000000" })).toContain("lighter than bg");
  expect(unscannable({ ...base, fg: "#999999", bg: "#ffffff" })).toContain("too little contrast to scan: 2.85:1");
  expect(unscannable({ ...base, fg: "#ff0000", bg: "#00ff00" })).toContain("too little contrast");
  expect(unscannable({ ...base, fg: "#767676", bg: "#ffffff" })).toBeUndefined();
});

test("rendering time and sizes per style (printed for the record)", async () => {
  for (const shape of SHAPES) {
    for (const finder of FINDERS) {
      const style: QrStyle = { fg: "#1a237e", bg: "#fff8e1", shape, finder, margin: 4, ecc: "M" };
      const start = performance.now();
      const svg = qrSvg(TEXT, 512, style);
      const svgMs = performance.now() - start;
      const png = await qrPng(TEXT, 512, style);
      const pngMs = performance.now() - start - svgMs;
      process.stdout.write(
        `qr ${shape}/${finder}: svg ${svg.length} B ${svgMs.toFixed(2)} ms, png512 ${png.length} B ${pngMs.toFixed(1)} ms\n`,
      );
    }
  }
});
