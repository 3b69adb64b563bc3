// Shrinking by averaging: each new pixel is the mean of the source area it covers (partly covered pixels count by
// the part covered). The Lanczos resize codec copies its input into its own WebAssembly memory and works in
// floats: shrinking a 36-megapixel image with it alone took 400 MB. Averaging needs two rows of sums and the
// output. Decision 0043.
import type { Pixels } from "./orientation.ts";

/** For each source row (or column): the first output row it falls in, and the share of it that falls there (the rest goes to the next). */
function spans(from: number, to: number): { first: Uint32Array; share: Float64Array } {
  const step = from / to;
  const first = new Uint32Array(from);
  const share = new Float64Array(from);
  for (let i = 0; i < from; i++) {
    const at = Math.min(to - 1, Math.floor(i / step));
    const end = (at + 1) * step;
    first[i] = at;
    share[i] = at === to - 1 || i + 1 <= end ? 1 : end - i;
  }
  return { first, share };
}

/** The pixels averaged down to `width`×`height`, each at most the source's: each source row is first summed across into `across`, then added into the output rows it covers. */
export function areaShrink(image: Pixels, width: number, height: number): Pixels {
  const { data, width: inWidth, height: inHeight } = image;
  if (width === inWidth && height === inHeight) return image;
  const cols = spans(inWidth, width);
  const rows = spans(inHeight, height);
  const area = (inWidth / width) * (inHeight / height);
  const out = new Uint8ClampedArray(width * height * 4);
  const across = new Float64Array(width * 4);
  let current = new Float64Array(width * 4);
  let next = new Float64Array(width * 4);
  let row = 0;
  for (let y = 0; y <= inHeight; y++) {
    if (y === inHeight || rows.first[y]! > row) {
      for (let i = 0; i < width * 4; i++) out[row * width * 4 + i] = current[i]! / area;
      [current, next] = [next, current.fill(0)];
      row++;
      if (y === inHeight) break;
    }
    across.fill(0);
    for (let x = 0, from = y * inWidth * 4; x < inWidth; x++, from += 4) {
      const to = cols.first[x]! * 4;
      const share = cols.share[x]!;
      if (share === 1) {
        across[to] += data[from]!;
        across[to + 1] += data[from + 1]!;
        across[to + 2] += data[from + 2]!;
        across[to + 3] += data[from + 3]!;
        continue;
      }
      for (let c = 0; c < 4; c++) {
        const value = data[from + c]!;
        across[to + c] += value * share;
        across[to + 4 + c] += value * (1 - share);
      }
    }
    const down = rows.share[y]!;
    for (let i = 0; i < width * 4; i++) current[i] += across[i]! * down;
    if (down < 1) for (let i = 0; i < width * 4; i++) next[i] += across[i]! * (1 - down);
  }
  return { data: out, width, height };
}
