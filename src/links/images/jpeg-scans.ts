// How many scans a JPEG holds, counted before any decoder sees it. A progressive JPEG is drawn in several scans
// (mozjpeg writes about ten, cameras and editors fewer than twenty), and the decoder revisits every block of the
// image for each one: 20,000 near-empty scans in a 555 KB file held a codec for 40 s. Decision 0043.

/** The most scans an upload may have: five times what real encoders write. */
export const MAX_JPEG_SCANS = 100;

const isRestart = (byte: number) => byte >= 0xd0 && byte <= 0xd7;

/**
 * The scans (SOS segments) of a JPEG, counted up to `stopAfter + 1`. Segments are walked by their lengths; a scan's
 * entropy-coded data runs to the next marker (0xff there is followed only by a stuffed 0x00 or a restart marker),
 * so nothing inside a segment or the scan data counts. Counting stops where the bytes stop being a JPEG: the
 * decoder refuses those.
 */
export function jpegScans(bytes: Uint8Array, stopAfter = MAX_JPEG_SCANS): number {
  let scans = 0;
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1]!;
    if (marker === 0xd9) break;
    if (marker === 0xff || marker === 0x01 || isRestart(marker)) {
      at += marker === 0xff ? 1 : 2; // a fill byte, or a marker without a length
      continue;
    }
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
    if (marker !== 0xda) continue;
    if (++scans > stopAfter) break;
    while (at + 1 < bytes.length && !(bytes[at] === 0xff && bytes[at + 1] !== 0 && !isRestart(bytes[at + 1]!))) at++;
  }
  return scans;
}
