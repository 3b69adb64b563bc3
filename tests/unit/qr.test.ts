// The terminal picture of a QR code (linkprev links qr on a TTY) is a code a real decoder reads: each character
// is two rows of modules drawn as half blocks, light modules drawn, dark ones left blank.
import { expect, test } from "bun:test";
import jsQR from "jsqr";
import { qrText, qrUrl } from "../../src/links/qr-drawing.ts";

test("the half-block rendering decodes to the short URL with the scan marker", () => {
  const text = qrUrl("https://lp.example/go/alice/spring-sale");
  expect(text).toBe("https://lp.example/go/alice/spring-sale?qr=1");
  const lines = qrText(text).trimEnd().split("\n");
  const width = [...lines[0]!].length;
  expect(lines.every((line) => [...line].length === width)).toBe(true);
  // Back to modules (two rows per line), then to pixels, 4 per module.
  const SCALE = 4;
  const rows = lines.length * 2;
  const data = new Uint8ClampedArray(width * SCALE * rows * SCALE * 4).fill(255);
  lines.forEach((line, y) =>
    [...line].forEach((char, x) => {
      const dark = { "█": [false, false], "▀": [false, true], "▄": [true, false], " ": [true, true] }[char];
      if (!dark) throw new Error(`unexpected character ${char}`);
      dark.forEach((isDark, half) => {
        if (!isDark) return;
        for (let py = (y * 2 + half) * SCALE; py < (y * 2 + half + 1) * SCALE; py++) {
          for (let px = x * SCALE; px < (x + 1) * SCALE; px++)
            data.fill(0, (py * width * SCALE + px) * 4, (py * width * SCALE + px) * 4 + 3);
        }
      });
    }),
  );
  expect(jsQR(data, width * SCALE, rows * SCALE)?.data).toBe(text);
});
