// The QR code as a PNG (the API's ?format=png): the modules of src/links/qr-drawing.ts painted with whole pixels per
// module, so edges stay sharp at any size.
import { badRequest } from "../http/errors.ts";
import { encodePng, loadPngCodec } from "./images/codecs.ts";
import { darkRuns, qrCode, qrSvg, qrUrl, QUIET_ZONE } from "./qr-drawing.ts";

/** The API draws both formats from here. */
export { qrSvg, qrUrl };

/**
 * A `size`×`size` PNG, black on white. Each module is a whole number of pixels (so edges stay sharp); what the
 * division leaves over widens the margin beyond the quiet zone.
 */
export async function qrPng(text: string, size: number): Promise<Uint8Array<ArrayBuffer>> {
  const code = qrCode(text);
  const scale = Math.floor(size / (code.size + 2 * QUIET_ZONE));
  if (scale < 1)
    throw badRequest(`size is too small for this link's code: at least ${code.size + 2 * QUIET_ZONE} pixels`, "size");
  const offset = Math.floor((size - code.size * scale) / 2);
  const pixels = new Uint8ClampedArray(size * size * 4).fill(255);
  for (const [x, y, length] of darkRuns(code)) {
    for (let row = offset + y * scale; row < offset + (y + 1) * scale; row++) {
      const start = (row * size + offset + x * scale) * 4;
      for (let i = start; i < start + length * scale * 4; i += 4) pixels[i] = pixels[i + 1] = pixels[i + 2] = 0;
    }
  }
  await loadPngCodec();
  return new Uint8Array(
    (await encodePng({ data: pixels, width: size, height: size, colorSpace: "srgb" } as ImageData)) as ArrayBuffer,
  );
}
