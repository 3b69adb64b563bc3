// The editor's mockups draw a rendition as the source under CSS object-fit: cover with cropPosition's
// object-position; what that shows must be the box the server cuts (focalCrop), to the pixel.
import { expect, test } from "bun:test";
import { cropPosition } from "../../src/client/ui/FocalPicker.tsx";
import { RENDITIONS, RENDITION_IDS, focalCrop } from "../../src/previews/variants.ts";

/** The part of a `width`×`height` source a browser shows in a box of `rendition`'s shape under object-fit: cover. */
function coverShows(width: number, height: number, rendition: keyof typeof RENDITIONS, position: string) {
  const box = RENDITIONS[rendition];
  const scale = Math.max(box.width / width, box.height / height);
  const shownWidth = box.width / scale;
  const shownHeight = box.height / scale;
  const [px, py] = position.split(" ").map((p) => Number.parseFloat(p) / 100);
  return {
    left: px! * (width - shownWidth),
    top: py! * (height - shownHeight),
    width: shownWidth,
    height: shownHeight,
  };
}

test("each rendition's drawn crop is the server's crop, for sources of every shape and focal points up to the edges", () => {
  const sources = [
    [2400, 1260],
    [1600, 900],
    [900, 1600],
    [1200, 1200],
    [640, 480],
    [2400, 800],
  ] as const;
  const focals = [
    [0.5, 0.5],
    [0, 0],
    [1, 1],
    [0.7, 0.25],
    [0.1, 0.9],
    [0.33, 0.66],
  ] as const;
  let moved = 0;
  for (const [width, height] of sources) {
    for (const [x, y] of focals) {
      for (const rendition of RENDITION_IDS) {
        const { width: w, height: h } = RENDITIONS[rendition];
        const cut = focalCrop(width, height, w / h, x, y);
        const shown = coverShows(width, height, rendition, cropPosition(width, height, rendition, { x, y }));
        expect(Math.abs(shown.left - cut.left)).toBeLessThanOrEqual(1);
        expect(Math.abs(shown.top - cut.top)).toBeLessThanOrEqual(1);
        expect(Math.abs(shown.width - cut.width)).toBeLessThanOrEqual(1);
        expect(Math.abs(shown.height - cut.height)).toBeLessThanOrEqual(1);
        if (cut.left > 0 || cut.top > 0) moved++;
      }
    }
  }
  // The cases include crops away from the top left corner (else the positions were never really checked).
  expect(moved).toBeGreaterThan(50);
});
