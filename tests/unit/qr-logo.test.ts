// Branded QR codes with a logo, and inverted ones asked for (issue 52, decision 0067): drawn by lean-qr +
// qr-drawing.ts, read back by jsqr; a logo too large for level H is refused with the reason.
import { beforeAll, expect, test } from "bun:test";
import jsQR from "jsqr";
import { rasterise } from "../helpers/qr-raster.ts";
import { decodePng, encodePng, loadPngCodec } from "../../src/links/images/codecs.ts";
import { qrPng, qrSvg, qrUrl, unscannable, type QrLogo, type QrStyle } from "../../src/links/qr.ts";
import {
  DEFAULT_QR_STYLE,
  QR_FINDERS,
  QR_LOGO_SIZES,
  QR_MAX_LOGO_SIZE,
  QR_SHAPES,
} from "../../src/links/qr-style-model.ts";

const TEXT = qrUrl("https://lp.example/go/alice/spring-sale");
/** Dark on light, and (asked for) light on dark. */
const COLOURS = [
  ["#000000", "#ffffff", false],
  ["#1a237e", "#fff8e1", false],
  ["#b71c1c", "#ffffff", false],
  ["#ffffff", "#1a237e", true],
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
    test(`shape ${shape}, finder ${finder} with each logo size the editor offers: SVG and PNG decode by jsqr`, async () => {
      for (const [fg, bg, inverted] of COLOURS) {
        for (const [logoSize] of QR_LOGO_SIZES) {
          const style: QrStyle = {
            ...DEFAULT_QR_STYLE,
            fg,
            bg,
            shape,
            finder,
            inverted,
            ecc: "L",
            logo: true,
            logoSize,
          };
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

test("rendering time and size per style, SVG and PNG, without and with a logo (printed for the record)", async () => {
  const runs = 5;
  const median = async (draw: () => unknown) => {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      await draw();
      times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!.toFixed(2);
  };
  for (const shape of QR_SHAPES) {
    for (const finder of QR_FINDERS) {
      for (const withLogo of [false, true]) {
        const style: QrStyle = {
          ...DEFAULT_QR_STYLE,
          fg: "#1a237e",
          bg: "#fff8e1",
          shape,
          finder,
          logo: withLogo,
          logoSize: 0.3,
        };
        const used = withLogo ? logo : undefined;
        const svg = qrSvg(TEXT, 512, style, used);
        const png512 = await qrPng(TEXT, 512, style, used);
        const png2048 = await qrPng(TEXT, 2048, style, used);
        process.stdout.write(
          `qr ${shape}/${finder}${withLogo ? " +logo" : ""}: svg ${svg.length} B ${await median(() => qrSvg(TEXT, 512, style, used))} ms; ` +
            `png512 ${png512.length} B ${await median(() => qrPng(TEXT, 512, style, used))} ms; ` +
            `png2048 ${png2048.length} B ${await median(() => qrPng(TEXT, 2048, style, used))} ms\n`,
        );
      }
    }
  }
}, 60_000);
