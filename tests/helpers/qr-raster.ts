// An SVG rasteriser of the tests' own for the QR codes src/links/qr-drawing.ts writes (not the PNG painter, so that
// the SVG is checked apart): the background, the path's runs, rects with rx, and an embedded PNG logo.
import { decodePng, loadPngCodec } from "../../src/links/images/codecs.ts";

const hex = (c: string) => [1, 3, 5].map((i) => Number.parseInt(c.slice(i, i + 2), 16));

export async function rasterise(svg: string, scale = 6): Promise<{ data: Uint8ClampedArray; side: number }> {
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
  const attr = (attrs: string, name: string) => new RegExp(`(?:^| )${name}="([^"]*)"`).exec(attrs)?.[1];
  for (const [, attrs] of svg.matchAll(/<rect ([^>]*)\/>/g)) {
    const a = (name: string) => attr(attrs!, name);
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
  const image = /<image ([^>]*)\/>/.exec(svg)?.[1];
  if (image) {
    await loadPngCodec();
    const href = attr(image, "href")!;
    const logo = await decodePng(Buffer.from(href.slice(href.indexOf(",") + 1), "base64").buffer as ArrayBuffer);
    const [x, y, w, h] = ["x", "y", "width", "height"].map((name) => Number(attr(image, name)) * scale);
    for (let row = Math.round(y!); row < Math.round(y! + h!); row++) {
      for (let col = Math.round(x!); col < Math.round(x! + w!); col++) {
        const sx = Math.min(logo.width - 1, Math.floor(((col - x! + 0.5) * logo.width) / w!));
        const sy = Math.min(logo.height - 1, Math.floor(((row - y! + 0.5) * logo.height) / h!));
        const s = (sy * logo.width + sx) * 4;
        const alpha = logo.data[s + 3]! / 255;
        const d = (row * side + col) * 4;
        for (let c = 0; c < 3; c++) data[d + c] = logo.data[s + c]! * alpha + data[d + c]! * (1 - alpha);
      }
    }
  }
  return { data, side };
}
