// QR codes for short links. The code holds the short URL plus the scan marker `?qr=1`, which /go counts as a
// scan (src/go/record-view.ts) and never passes on to the target. Drawn from lean-qr's module grid: an SVG path of
// whole modules, a terminal picture of half blocks (the CLI draws it), and the modules the PNG (src/links/qr.ts)
// paints; every one with the quiet zone of four modules that scanners need. Pure: the CLI imports it.
import { correction, generate, type Bitmap2D } from "lean-qr";
import { DEFAULT_QR_STYLE, type QrStyle } from "./qr-style-model.ts";

export const QR_SCAN_MARKER = "qr=1";
/** Modules of light margin around the code (ISO/IEC 18004). */
export const QUIET_ZONE = 4;

export const qrUrl = (shortUrl: string) => `${shortUrl}?${QR_SCAN_MARKER}`;

/** Medium error correction by default: survives a smudged print without growing the code much. */
export const qrCode = (text: string, ecc: QrStyle["ecc"] = "M"): Bitmap2D =>
  generate(text, { minCorrectionLevel: correction[ecc] });

/** A logo's size in pixels. */
export type LogoSize = { width: number; height: number };
/** A logo as stored: a PNG (src/links/images/normalise.ts made it) and its size. */
export type QrLogo = LogoSize & { png: Uint8Array };

/** The error correction a style is drawn at: H under a logo, whatever was asked. */
export const eccOf = (style: QrStyle): QrStyle["ecc"] => (style.logo ? "H" : style.ecc);

/** The square of modules a logo clears, centred on the grid: never more than logoSize² of the code. */
export function logoBox(codeSize: number, style: QrStyle): QrBox | undefined {
  if (!style.logo) return undefined;
  let side = Math.floor(style.logoSize * codeSize);
  if ((codeSize - side) % 2) side--;
  const at = (codeSize - side) / 2;
  return { x: at, y: at, w: side, h: side };
}
export type QrBox = { x: number; y: number; w: number; h: number };

/** A filled rounded rectangle in module units; `r` is its corner radius (half the side: a circle). */
export type QrShape = { x: number; y: number; w: number; h: number; r: number; light?: boolean };

const FINDER_CORNERS = (size: number) => [
  [0, 0],
  [size - 7, 0],
  [0, size - 7],
];
const inFinder = (size: number, x: number, y: number) =>
  FINDER_CORNERS(size).some(([fx, fy]) => x >= fx! && x < fx! + 7 && y >= fy! && y < fy! + 7);

/**
 * The code's shapes in module units, margin included: square modules as row runs (r 0), rounded and dot modules one
 * shape each, and (but for square modules with square finders) the three finder patterns as a ring (dark 7×7, light
 * 5×5) and a 3×3, their corners rounded by the finder style.
 */
export function qrShapes(code: Bitmap2D, style: QrStyle): QrShape[] {
  const m = style.margin;
  const shapes: QrShape[] = [];
  // Square modules draw a square finder as they come; any other shape draws the finders whole, so that a finder stays
  // solid under dots (a finder of dots was the one style jsqr missed at print sizes).
  const squareFinder = style.finder === "square" && style.shape === "square";
  const box = logoBox(code.size, style);
  const dark = (x: number, y: number) =>
    code.get(x, y) && !(box && x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h);
  for (const [x, y, length] of darkRuns(code.size, dark)) {
    for (let i = x; i < x + length; ) {
      if (!squareFinder && inFinder(code.size, i, y)) {
        i++;
        continue;
      }
      if (style.shape === "square") {
        let end = i;
        while (end < x + length && (squareFinder || !inFinder(code.size, end, y))) end++;
        shapes.push({ x: i + m, y: y + m, w: end - i, h: 1, r: 0 });
        i = end;
      } else {
        shapes.push({ x: i + m, y: y + m, w: 1, h: 1, r: style.shape === "dots" ? 0.5 : 0.3 });
        i++;
      }
    }
  }
  if (!squareFinder) {
    const [outer, inner] = { square: [0, 0], rounded: [1.5, 0.75], dot: [2.5, 1.5] }[style.finder];
    for (const [fx, fy] of FINDER_CORNERS(code.size)) {
      const x = fx! + m;
      const y = fy! + m;
      shapes.push({ x, y, w: 7, h: 7, r: outer });
      shapes.push({ x: x + 1, y: y + 1, w: 5, h: 5, r: Math.max(0, outer - 1), light: true });
      shapes.push({ x: x + 2, y: y + 2, w: 3, h: 3, r: inner });
    }
  }
  return shapes;
}

/** Whether the point (px, py), in module units, lies inside the shape. */
export function inShape(s: QrShape, px: number, py: number): boolean {
  if (px < s.x || py < s.y || px >= s.x + s.w || py >= s.y + s.h) return false;
  if (s.r === 0) return true;
  const cx = Math.min(Math.max(px, s.x + s.r), s.x + s.w - s.r);
  const cy = Math.min(Math.max(py, s.y + s.r), s.y + s.h - s.r);
  return (px - cx) ** 2 + (py - cy) ** 2 <= s.r ** 2;
}

/** Runs of dark modules, row by row: [x, y, length]. */
export function* darkRuns(size: number, dark: (x: number, y: number) => boolean): Generator<[number, number, number]> {
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; ) {
      if (!dark(x, y)) {
        x++;
        continue;
      }
      const start = x;
      while (x < size && dark(x, y)) x++;
      yield [start, y, x - start];
    }
  }
}

/** Where the logo is drawn, in module units, margin included: its box less half a module of light all round. */
export function logoPlace(codeSize: number, style: QrStyle, logo: LogoSize): QrBox | undefined {
  const box = logoBox(codeSize, style);
  if (!box) return undefined;
  const room = box.w - 1;
  const scale = room / Math.max(logo.width, logo.height);
  const [w, h] = [logo.width * scale, logo.height * scale];
  return { x: style.margin + box.x + (box.w - w) / 2, y: style.margin + box.y + (box.h - h) / 2, w, h };
}

/**
 * A `size`-pixel SVG in a viewBox counted in modules: the background, one path of square-module runs, a `rect`
 * (with `rx`) per rounded or dot module and per finder part, and the logo as an embedded PNG (`logoHref`: its data
 * URL) when the style has one.
 */
export function qrSvg(
  text: string,
  size: number,
  style: QrStyle = DEFAULT_QR_STYLE,
  logo?: LogoSize & { href: string },
): string {
  const code = qrCode(text, eccOf(style));
  const side = code.size + 2 * style.margin;
  let path = "";
  let rects = "";
  for (const s of qrShapes(code, style)) {
    // Module runs (one row high) go in the path; finder parts are rects, drawn in order (light 5×5 over dark 7×7).
    if (s.r === 0 && !s.light && s.h === 1) path += `M${s.x} ${s.y}h${s.w}v${s.h}h-${s.w}z`;
    else
      rects += `<rect x="${s.x}" y="${s.y}" width="${s.w}" height="${s.h}"${s.r ? ` rx="${s.r}"` : ""} fill="${s.light ? style.bg : style.fg}"/>`;
  }
  const crisp = style.shape === "square" && style.finder === "square" ? ' shape-rendering="crispEdges"' : "";
  const place = logo && logoPlace(code.size, style, logo);
  const image = place
    ? `<image x="${place.x}" y="${place.y}" width="${place.w}" height="${place.h}" href="${logo.href}"/>`
    : "";
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${side} ${side}"${crisp}>` +
    `<rect width="${side}" height="${side}" fill="${style.bg}"/><path fill="${style.fg}" d="${path}"/>${rects}${image}</svg>`
  );
}

/**
 * The code in a terminal: each character holds two rows of modules as half blocks, light on dark reversed
 * (dark modules as spaces on a light block would depend on the terminal's colours, so the light ones are drawn).
 */
export function qrText(text: string): string {
  const code = qrCode(text);
  const light = (x: number, y: number) => x < 0 || y < 0 || x >= code.size || y >= code.size || !code.get(x, y);
  const lines: string[] = [];
  for (let y = -QUIET_ZONE; y < code.size + QUIET_ZONE; y += 2) {
    let line = "";
    for (let x = -QUIET_ZONE; x < code.size + QUIET_ZONE; x++) {
      const top = light(x, y);
      const bottom = light(x, y + 1);
      line += top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " ";
    }
    lines.push(line);
  }
  return `${lines.join("\n")}\n`;
}
