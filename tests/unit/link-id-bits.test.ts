// The view writer's memo of existing link ids (src/views/link-id-bits.ts): exact for any id it takes, growing to
// fit, emptied by clear, and never claiming an id it could not hold.
import { expect, test } from "bun:test";
import { LinkIdBits } from "../../src/views/link-id-bits.ts";

test("remembers exactly the ids added, across growth, until cleared", () => {
  const bits = new LinkIdBits();
  const added = [1, 7, 8, 9, 8_191, 8_192, 1_000_000, 2_500_001];
  for (const id of added) bits.add(id);
  for (const id of added) expect(bits.has(id)).toBe(true);
  for (const id of [0, 2, 6, 10, 8_190, 8_193, 999_999, 1_000_001, 2_500_000, 2_500_002, 50_000_000])
    expect(bits.has(id)).toBe(false);

  bits.clear();
  for (const id of added) expect(bits.has(id)).toBe(false);
  bits.add(9);
  expect(bits.has(9)).toBe(true);
  expect(bits.has(8)).toBe(false);
});

test("an id it cannot hold (huge, negative, fractional) is not remembered, so it is asked of the database again", () => {
  const bits = new LinkIdBits();
  for (const id of [2 ** 27, 2 ** 40, Number.MAX_SAFE_INTEGER + 2, -8, 3.5, Number.NaN]) {
    bits.add(id);
    expect(bits.has(id)).toBe(false);
  }
  bits.add(2 ** 27 - 1);
  expect(bits.has(2 ** 27 - 1)).toBe(true);
});
