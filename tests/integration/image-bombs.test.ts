// Decompression bombs over HTTP and a real database (SQLite or PostgreSQL): small files that declare huge images
// (a zlib-packed PNG, a JPEG and a WebP whose headers claim 10000×10000 or more) are refused from their header
// on every path into the codecs (create, update, lint and import), before any decoding; the lint route counts
// uploads against the image-work limit; and the server's memory stays where it was.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { deflateSync } from "node:zlib";
import { makeJpegWithExif, makePng, makeWebp } from "../helpers/images.ts";
import { systemClock } from "../../src/clock.ts";
import { createLogger } from "../../src/observability/log.ts";
import type { UploadBackend } from "../../src/links/images/backends.ts";
import { ImageStore } from "../../src/links/images/store.ts";
import { RECYCLE_PIXELS } from "../../src/links/images/codec-workers.ts";
import { PixelBudget } from "../../src/links/images/pixel-budget.ts";
import { ImageWorkCounts } from "../../src/links/images/work-counts.ts";
import { apiClient, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const LIMIT = "the most we accept is 40 megapixels and 16384 pixels a side";

/** A PNG of `width`×`height` one-bit grey pixels, all zero: 10000×10000 is ~12 KB here and 400 MB decoded. */
function pngBomb(width: number, height: number): Uint8Array<ArrayBuffer> {
  const row = Math.ceil(width / 8) + 1;
  const idat = deflateSync(new Uint8Array(row * height), { level: 9 });
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    // The CRC is left zero: the header check must refuse before anything would look at it.
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ];
  return new Uint8Array(parts.flatMap((part) => [...part]));
}

/** A real small JPEG whose frame header (SOF) is rewritten to declare `width`×`height`. */
async function jpegBomb(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await makeJpegWithExif(16, 16);
  const view = new DataView(bytes.buffer);
  let at = 2;
  while (view.getUint8(at + 1) < 0xc0 || view.getUint8(at + 1) > 0xc2) at += 2 + view.getUint16(at + 2);
  view.setUint16(at + 5, height);
  view.setUint16(at + 7, width);
  return bytes;
}

/** A real small lossy WebP whose VP8 frame header is rewritten to declare `width`×`height` (at most 16383 a side). */
async function webpBomb(width: number, height: number): Promise<Uint8Array<ArrayBuffer>> {
  const bytes = await makeWebp(16, 16);
  expect(new TextDecoder().decode(bytes.subarray(12, 16))).toBe("VP8 ");
  const view = new DataView(bytes.buffer);
  view.setUint16(26, width, true);
  view.setUint16(28, height, true);
  return bytes;
}

type Bomb = { name: string; type: string; bytes: Uint8Array<ArrayBuffer>; declared: string };
let bombs: Bomb[];

let server: TestServer;
/** APP_WORKERS=0: the API runs on the thread whose ImageStore is read here (how many codec Workers it started). */
let single: TestServer;
/** Serves the bombs to image imports, as any site on the web could. */
let site: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  bombs = [
    { name: "bomb.png", type: "image/png", bytes: pngBomb(10000, 10000), declared: "10000×10000" },
    { name: "wide.png", type: "image/png", bytes: pngBomb(20000, 8), declared: "20000×8" },
    { name: "bomb.jpg", type: "image/jpeg", bytes: await jpegBomb(10000, 10000), declared: "10000×10000" },
    { name: "bomb.webp", type: "image/webp", bytes: await webpBomb(16383, 16383), declared: "16383×16383" },
  ];
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const bomb = bombs.find((b) => new URL(request.url).pathname === `/${b.name}`);
      return bomb
        ? new Response(bomb.bytes, { headers: { "content-type": bomb.type } })
        : new Response("Not found", { status: 404 });
    },
  });
  [server, single] = await Promise.all([
    startTestServer({ FETCH_ALLOW_PRIVATE: "127.0.0.1/32" }),
    startTestServer({ APP_WORKERS: "0", FETCH_ALLOW_PRIVATE: "127.0.0.1/32" }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), single.close()]);
  site.stop(true);
});

const card = {
  title: "Spring sale",
  description: "Everything 20 % off this week",
  targetUrl: "https://shop.example.com/sale",
};

function form(
  fields: Record<string, string>,
  image?: Bomb | { name: string; type: string; bytes: Uint8Array<ArrayBuffer> },
): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  if (image) data.append("image", new File([image.bytes], image.name, { type: image.type }));
  return data;
}

async function refused(response: Response, bomb: Bomb): Promise<void> {
  const body = (await response.json()) as { message: string };
  expect({ file: bomb.name, status: response.status }).toEqual({ file: bomb.name, status: 400 });
  expect(body.message).toContain(`Image is ${bomb.declared} pixels; ${LIMIT}`);
}

const create = (client: ApiClient, bomb: Bomb) => client.call("/api/links", { method: "POST", body: form(card, bomb) });
const lint = (client: ApiClient, bomb: Bomb) =>
  client.call("/api/links/lint", { method: "POST", body: form(card, bomb) });
const importFrom = (client: ApiClient, bomb: Bomb) =>
  client.call("/api/links", { method: "POST", json: { ...card, imageImportUrl: `${site.url}${bomb.name}` } });

const linksOf = async (target: TestServer, userId: number) =>
  (await target.sql.get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM links WHERE user_id = ?", userId))!
    .n;

describe("images declaring more pixels than the budget", () => {
  test("a create with an uploaded bomb is a 400 saying the limit, and no link is made", async () => {
    const client = await apiClient(server, "pro");
    for (const bomb of bombs) await refused(await create(client, bomb), bomb);
    expect(await linksOf(server, client.userId)).toBe(0);
  });

  test("an update with an uploaded bomb is a 400 saying the limit, and the link keeps its image", async () => {
    const client = await apiClient(server, "pro");
    const made = await client.call("/api/links", {
      method: "POST",
      json: { ...card, imageUrl: "https://cdn.example.com/card.jpg" },
    });
    expect(made.status).toBe(201);
    const { linkSlug } = (await made.json()) as { linkSlug: string };
    for (const bomb of bombs)
      await refused(
        await client.call(`/api/links/by-slug/${linkSlug}`, { method: "PUT", body: form(card, bomb) }),
        bomb,
      );
    const after = (await (await client.call(`/api/links/by-slug/${linkSlug}`)).json()) as { imageUrl: string };
    expect(after.imageUrl).toBe("https://cdn.example.com/card.jpg");
  });

  test("a lint with an uploaded bomb is a 400 saying the limit", async () => {
    const client = await apiClient(server, "pro");
    for (const bomb of bombs) await refused(await lint(client, bomb), bomb);
  });

  test("an image import of a bomb is a 400 saying the limit, and no link is made", async () => {
    const client = await apiClient(server, "pro");
    for (const bomb of bombs) await refused(await importFrom(client, bomb), bomb);
    expect(await linksOf(server, client.userId)).toBe(0);
  });

  test("bombs never reach a decoder: no codec Worker starts for them, and an image within the budget still works", async () => {
    const client = await apiClient(single, "pro");
    for (const bomb of bombs) {
      await refused(await create(client, bomb), bomb);
      await refused(await lint(client, bomb), bomb);
      await refused(await importFrom(client, bomb), bomb);
    }
    expect(single.ctx.images.workersStarted).toBe(0);
    const fine = await client.call("/api/links/lint", {
      method: "POST",
      body: form(card, { name: "ok.png", type: "image/png", bytes: makePng(1200, 630) }),
    });
    expect(fine.status).toBe(200);
    expect(single.ctx.images.workersStarted).toBe(1);
  });
});

describe("POST /api/links/lint and the image-work limit", () => {
  test("lint uploads count like imports: past 30 a minute, a 429; a lint without an image is not counted", async () => {
    const client = await apiClient(server, "pro");
    const bomb = bombs[0]!;
    for (let i = 0; i < 30; i++) expect((await lint(client, bomb)).status).toBe(400);
    expect((await lint(client, bomb)).status).toBe(429);
    // The same per-user count as imports.
    expect((await importFrom(client, bomb)).status).toBe(429);
    expect((await client.call("/api/links/lint", { method: "POST", json: card })).status).toBe(200);
  });
});

/** Resident memory of this process: the server runs in it, its codec Worker (a thread) too. */
const residentMb = () =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${process.pid}/status`, "utf8"))![1]) / 1024;

describe("memory", () => {
  test("20 bomb requests leave the server's resident memory within 50 MB of where it was", async () => {
    const client = await apiClient(single, "pro");
    // Codecs loaded first (a normal upload), so that what is measured is what the bombs do.
    expect(
      (
        await client.call("/api/links", {
          method: "POST",
          body: form(card, { name: "ok.png", type: "image/png", bytes: makePng(1200, 630) }),
        })
      ).status,
    ).toBe(201);
    Bun.gc(true);
    const before = residentMb();
    for (let i = 0; i < 20; i++) {
      const bomb = bombs[i % bombs.length]!;
      await refused(i % 2 === 0 ? await create(client, bomb) : await importFrom(client, bomb), bomb);
    }
    Bun.gc(true);
    expect(residentMb() - before).toBeLessThan(50);
  });
});

describe("the codec Worker after a large image", () => {
  test("a job over RECYCLE_PIXELS runs on a Worker of its own, ended after it: the memory it took is returned", async () => {
    const client = await apiClient(single, "pro");
    const lintImage = (bytes: Uint8Array<ArrayBuffer>) =>
      client.call("/api/links/lint", { method: "POST", body: form(card, { name: "a.png", type: "image/png", bytes }) });
    // Within the budget, just over the threshold.
    const [width, height] = [4000, Math.ceil(RECYCLE_PIXELS / 4000) + 1];
    expect((await lintImage(makePng(200, 100))).status).toBe(200);
    const started = single.ctx.images.workersStarted;
    Bun.gc(true);
    const before = residentMb();

    const large = await lintImage(pngBomb(width, height));
    expect(large.status).toBe(200);
    const warnings = ((await large.json()) as { warnings: Array<{ message: string }> }).warnings
      .map((w) => w.message)
      .join(" ");
    expect(warnings).toContain(`${width}×${height}`);

    expect((await lintImage(makePng(200, 100))).status).toBe(200);
    expect(single.ctx.images.workersStarted).toBe(started + 1);
    Bun.gc(true);
    expect(residentMb() - before).toBeLessThan(50);
  }, 90_000);

  test("jobs sent with a large one all finish; the large one gets a Worker of its own, the others share one", async () => {
    // A threshold of 10,000 pixels, so that small images show the same hand-over quickly.
    const counts = new ImageWorkCounts(() => {}, null);
    const gate = new PixelBudget({ pixels: 52_000_000, smallPixels: 10_000, queue: 16 }, counts);
    const store = new ImageStore({} as UploadBackend, {
      gate,
      deadlineMs: 60_000,
      counts,
      recyclePixels: 10_000,
      clock: systemClock,
      log: createLogger("text"),
    });
    try {
      const image = (width: number, height: number) =>
        new File([makePng(width, height)], "a.png", { type: "image/png" });
      const centre = { x: 0.5, y: 0.5 };
      // In this order: a job under the threshold, one over it (on a Worker of its own), one sent after it.
      const done = await Promise.all([
        store.prepare(image(99, 100), centre),
        store.prepare(image(101, 100), centre),
        store.prepare(image(60, 40), centre),
      ]);
      expect(done.map((d) => `${d.source.width}×${d.source.height}`)).toEqual(["99×100", "101×100", "60×40"]);
      expect(store.workersStarted).toBe(2);
      expect((await store.prepare(image(50, 50), centre)).source.width).toBe(50);
      expect(store.workersStarted).toBe(2);
    } finally {
      store.close();
    }
  }, 60_000);
});
