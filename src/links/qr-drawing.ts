// QR codes for short links. The code holds the short URL plus the scan marker `?qr=1`, which /go counts as a
// scan (src/go/go.ts) and never passes on to the target. Drawn from lean-qr's module grid: an SVG path of
// whole modules, a terminal picture of half blocks (the CLI draws it), and the modules the PNG (src/links/qr.ts)
// paints; every one with the quiet zone of four modules that scanners need. Pure: the CLI imports it.
import { correction, generate, type Bitmap2D } from "lean-qr";

export const QR_SCAN_MARKER = "qr=1";
/** Modules of light margin around the code (ISO/IEC 18004). */
export const QUIET_ZONE = 4;

export const qrUrl = (shortUrl: string) => `${shortUrl}?${QR_SCAN_MARKER}`;

/** Medium error correction: survives a smudged print without growing the code much. */
export const qrCode = (text: string): Bitmap2D => generate(text, { minCorrectionLevel: correction.M });

/** Runs of dark modules, row by row: [x, y, length]. */
export function* darkRuns(code: Bitmap2D): Generator<[number, number, number]> {
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; ) {
      if (!code.get(x, y)) {
        x++;
        continue;
      }
      const start = x;
      while (x < code.size && code.get(x, y)) x++;
      yield [start, y, x - start];
    }
  }
}

/** A `size`-pixel SVG: one path of module-sized rectangles on white, in a viewBox counted in modules. */
export function qrSvg(text: string, size: number): string {
  const code = qrCode(text);
  const side = code.size + 2 * QUIET_ZONE;
  let path = "";
  for (const [x, y, length] of darkRuns(code)) path += `M${x + QUIET_ZONE} ${y + QUIET_ZONE}h${length}v1h-${length}z`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`
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
