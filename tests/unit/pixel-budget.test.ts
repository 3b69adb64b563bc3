// The image budget's order (decision 0043): large jobs take turns in their lane, small ones never wait behind them,
// a full queue turns the newcomer away, and a released share lets the next one in.
import { expect, test } from "bun:test";
import { PixelBudget, type Lease } from "../../src/links/images/pixel-budget.ts";
import { areaShrink } from "../../src/links/images/area-shrink.ts";
import { ImageWorkCounts } from "../../src/links/images/work-counts.ts";

const MP = 1_000_000;
const budget = (queue = 16, counts = new ImageWorkCounts(() => {}, null)) =>
  new PixelBudget({ pixels: 52 * MP, smallPixels: 12 * MP, queue }, counts);

/** Which of the named jobs have their share, in the order they got it. */
function tracker() {
  const granted: string[] = [];
  const leases = new Map<string, Lease>();
  const enter = (b: PixelBudget, name: string, pixels: number) => {
    const waiting = b.enter(pixels);
    void waiting?.then((lease) => {
      granted.push(name);
      leases.set(name, lease);
    });
    return waiting;
  };
  return { granted, enter, release: (name: string) => leases.get(name)!.release() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("large jobs take turns in order; a small one passes them while they wait", async () => {
  const b = budget();
  const { granted, enter, release } = tracker();
  enter(b, "big-1", 36 * MP);
  enter(b, "big-2", 36 * MP);
  enter(b, "big-3", 13 * MP);
  enter(b, "small", 1 * MP);
  await settle();
  // big-3 does not fit beside big-1 (36 + 13 > 40), and would never pass big-2 anyway.
  expect(granted).toEqual(["big-1", "small"]);
  expect(b.queued).toBe(2);
  release("big-1");
  await settle();
  expect(granted).toEqual(["big-1", "small", "big-2"]);
  release("big-2");
  release("big-2"); // a second release gives nothing back twice
  await settle();
  expect(granted).toEqual(["big-1", "small", "big-2", "big-3"]);
});

test("small jobs share their own 12 megapixels in order", async () => {
  const b = budget();
  const { granted, enter, release } = tracker();
  enter(b, "a", 8 * MP);
  enter(b, "b", 8 * MP);
  enter(b, "c", 2 * MP);
  await settle();
  expect(granted).toEqual(["a"]);
  release("a");
  await settle();
  expect(granted).toEqual(["a", "b", "c"]);
});

test("with the queue full, a job that would wait is turned away at once (counted, and a warning); one that fits is not", async () => {
  const warnings: string[] = [];
  const counts = new ImageWorkCounts((message) => warnings.push(message), null);
  const b = budget(1, counts);
  const { enter } = tracker();
  expect(enter(b, "big-1", 36 * MP)).not.toBeNull();
  expect(enter(b, "big-2", 36 * MP)).not.toBeNull();
  expect(enter(b, "big-3", 36 * MP)).toBeNull();
  expect(enter(b, "small", 1 * MP)).not.toBeNull();
  await expect(b.acquire(36 * MP)).rejects.toMatchObject({ status: 503 });
  expect({ queued: b.queued, pixelsInUse: b.pixelsInUse, refused: counts.counts["queue-full"] }).toEqual({
    queued: 1,
    pixelsInUse: 37 * MP,
    refused: 2,
  });
  expect(warnings).toEqual(Array(2).fill("an image job was turned away: the image queue is full (IMAGE_QUEUE)"));
});

test("averaging down keeps a picture's areas: black stays black, white stays white, a block over both is their mean", () => {
  const width = 9;
  const data = new Uint8ClampedArray(width * 2 * 4);
  for (let i = 0; i < width * 2; i++) data.set(i % width < 4.5 ? [0, 0, 0, 255] : [255, 255, 255, 255], i * 4);
  // Columns 0–4 black, 5–8 white; to 3 columns of 3 source columns each.
  const out = areaShrink({ data, width, height: 2 }, 3, 1);
  expect([...out.data]).toEqual([0, 0, 0, 255, 85, 85, 85, 255, 255, 255, 255, 255]);
});
