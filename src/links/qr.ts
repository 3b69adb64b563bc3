// The QR code as a PNG (the API's ?format=png): the modules of src/links/qr-drawing.ts painted with whole pixels per
// module, so edges stay sharp at any size; a logo is painted over its cleared square.
import { badRequest } from "../http/errors.ts";
import { decodePng, encodePng, loadPngCodec } from "./images/codecs.ts";
import { DEFAULT_QR_STYLE, unscannable, type QrStyle } from "./qr-style-model.ts";
import { eccOf, inShape, logoPlace, qrCode, qrShapes, qrSvg, qrUrl, type QrLogo } from "./qr-drawing.ts";

/** The API draws both formats from here. */
export { qrSvg, qrUrl, unscannable, type QrLogo, type QrStyle };

const rgb = (hex: string) => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];

/** The logo's pixels blended over `pixels` in the box (pixels of the image), nearest sample, by its alpha. */
async function paintLogo(
  pixels: Uint8ClampedArray,
  size: number,
  logo: QrLogo,
  box: { x: number; y: number; w: number; h: number },
) {
  const decoded = await decodePng(logo.png.slice().buffer);
  const left = Math.round(box.x);
  const top = Math.round(box.y);
  const width = Math.round(box.w);
  const height = Math.round(box.h);
  for (let row = 0; row < height; row++) {
    const sy = Math.min(decoded.height - 1, Math.floor(((row + 0.5) * decoded.height) / height));
    for (let col = 0; col < width; col++) {
      const sx = Math.min(decoded.width - 1, Math.floor(((col + 0.5) * decoded.width) / width));
      const s = (sy * decoded.width + sx) * 4;
      const d = ((top + row) * size + left + col) * 4;
      const alpha = decoded.data[s + 3]! / 255;
      for (let c = 0; c < 3; c++) pixels[d + c] = decoded.data[s + c]! * alpha + pixels[d + c]! * (1 - alpha);
    }
  }
}

/**
 * A `size`×`size` PNG in the style's colours. Each module is a whole number of pixels (so edges stay sharp); what the
 * division leaves over widens the margin. Rounded and dot shapes are painted where a pixel's centre falls inside them.
 */
export async function qrPng(
  text: string,
  size: number,
  style: QrStyle = DEFAULT_QR_STYLE,
  logo?: QrLogo,
): Promise<Uint8Array<ArrayBuffer>> {
  const code = qrCode(text, eccOf(style));
  const side = code.size + 2 * style.margin;
  const scale = Math.floor(size / side);
  if (scale < 1) throw badRequest(`size is too small for this link's code: at least ${side} pixels`, "size");
  const offset = Math.floor((size - side * scale) / 2);
  const [fg, bg] = [rgb(style.fg), rgb(style.bg)];
  const pixels = new Uint8ClampedArray(size * size * 4);
  for (let i = 0; i < pixels.length; i += 4) {
    pixels[i] = bg[0];
    pixels[i + 1] = bg[1];
    pixels[i + 2] = bg[2];
    pixels[i + 3] = 255;
  }
  for (const shape of qrShapes(code, style)) {
    const colour = shape.light ? bg : fg;
    for (let row = offset + shape.y * scale; row < offset + (shape.y + shape.h) * scale; row++) {
      for (let col = offset + shape.x * scale; col < offset + (shape.x + shape.w) * scale; col++) {
        if (shape.r && !inShape(shape, (col - offset + 0.5) / scale, (row - offset + 0.5) / scale)) continue;
        const i = (row * size + col) * 4;
        pixels[i] = colour[0];
        pixels[i + 1] = colour[1];
        pixels[i + 2] = colour[2];
      }
    }
  }
  await loadPngCodec();
  const place = logo && logoPlace(code.size, style, logo);
  if (logo && place) {
    const at = (v: number) => offset + v * scale;
    await paintLogo(pixels, size, logo, { x: at(place.x), y: at(place.y), w: place.w * scale, h: place.h * scale });
  }
  return new Uint8Array(
    (await encodePng({ data: pixels, width: size, height: size, colorSpace: "srgb" } as ImageData)) as ArrayBuffer,
  );
}
