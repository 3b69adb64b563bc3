// The limits on image work other than memory (decision 0043), over HTTP: a JPEG with too many scans is refused
// before decoding, a job past its deadline ends the Worker running it, a full queue is a 503 with Retry-After, and
// every path that decodes an image (create, update, a new focal point's re-cut, lint, import, auto-fill) counts
// against one per-user limit.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestClock } from "../helpers/clock.ts";
import { blackPng, makeJpegWithExif, makePng } from "../helpers/images.ts";
import { apiClient, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const card = { title: "Spring sale", description: "Everything 20 % off this week", targetUrl: "https://shop.example.com/sale" };

function form(image: { name: string; type: string; bytes: Uint8Array<ArrayBuffer> }, fields: Record<string, string> = card): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  data.append("image", new File([image.bytes], image.name, { type: image.type }));
  return data;
}
const png = (name: string, bytes: Uint8Array<ArrayBuffer>) => ({ name, type: "image/png", bytes });

const isRestart = (byte: number) => byte >= 0xd0 && byte <= 0xd7;

/** The JPEG with its last scan (header and entropy-coded data) repeated `times` more times before the end. */
function repeatLastScan(jpeg: Uint8Array<ArrayBuffer>, times: number): Uint8Array<ArrayBuffer> {
  let at = 2;
  let lastScan = -1;
  while (jpeg[at + 1] !== 0xd9) {
    const length = (jpeg[at + 2]! << 8) | jpeg[at + 3]!;
    const isScan = jpeg[at + 1] === 0xda;
    if (isScan) lastScan = at;
    at += 2 + length;
    if (isScan) while (!(jpeg[at] === 0xff && jpeg[at + 1] !== 0 && !isRestart(jpeg[at + 1]!))) at++;
  }
  const scan = jpeg.subarray(lastScan, at);
  const out = new Uint8Array(jpeg.length + scan.length * times);
  out.set(jpeg.subarray(0, at));
  for (let i = 0; i < times; i++) out.set(scan, at + i * scan.length);
  out.set(jpeg.subarray(at), at + times * scan.length);
  return out;
}

describe("JPEG scans", () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer({ APP_WORKERS: "0" })));
  afterAll(() => server.close());

  test("a progressive JPEG with 150 repeated scans is refused before decoding; the same JPEG as written is stored", async () => {
    const client = await apiClient(server, "pro");
    const written = await makeJpegWithExif(64, 64);
    const hostile = repeatLastScan(written, 150);
    const refused = await client.call("/api/links", { method: "POST", body: form({ name: "scans.jpg", type: "image/jpeg", bytes: hostile }) });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe("This JPEG has more than 100 scans; save it again as a standard JPEG");
    expect(server.ctx.images.workersStarted).toBe(0);
    const fine = await client.call("/api/links", { method: "POST", body: form({ name: "photo.jpg", type: "image/jpeg", bytes: written }) });
    expect(fine.status).toBe(201);
  });
});

describe("the decode deadline", () => {
  let server: TestServer;
  beforeAll(async () => (server = await startTestServer({ APP_WORKERS: "0", IMAGE_DEADLINE_MS: "500" })));
  afterAll(() => server.close());

  test("an image still decoding after the deadline is a 422 saying so, and the Worker decoding it is ended", async () => {
    const client = await apiClient(server, "pro");
    // 40 megapixels: decoding alone takes longer than half a second on any machine.
    const response = await client.call("/api/links", { method: "POST", body: form(png("huge.png", blackPng(16_000, 2_500))) });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toBe("The image took more than 0.5 seconds to process; try a smaller or simpler image");
    expect(server.ctx.images.workersStarted).toBe(1);
    expect(server.ctx.images.workersAlive).toBe(0);
  }, 60_000);
});

describe("a full queue", () => {
  let server: TestServer;
  // Two app workers, no room to wait: the budget is the process's, so the second large image is turned away
  // whichever worker it reaches.
  beforeAll(async () => (server = await startTestServer({ APP_WORKERS: "2", IMAGE_QUEUE: "0" })));
  afterAll(() => server.close());

  test("an image that would have to wait is a 503 with Retry-After while the budget is taken; the other is checked", async () => {
    const client = await apiClient(server, "pro");
    // 25 megapixels each: two do not fit beside each other.
    const lint = () => client.call("/api/links/lint", { method: "POST", body: form(png("large.png", blackPng(5_000, 5_000))) });
    const answers = await Promise.all([lint(), lint()]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 503]);
    const busy = answers.find((a) => a.status === 503)!;
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(((await busy.json()) as { message: string }).message).toBe("Too many images are being processed right now. Please try again in a moment.");
  }, 120_000);
});

describe("the per-user limit on image work", () => {
  let server: TestServer;
  /** Serves a bomb (refused from its header: counted, never decoded) and a page for auto-fill. */
  let site: ReturnType<typeof Bun.serve>;
  const bomb = blackPng(20_000, 8);
  beforeAll(async () => {
    site = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (request) =>
        new URL(request.url).pathname === "/bomb.png"
          ? new Response(bomb, { headers: { "content-type": "image/png" } })
          : new Response("<html><head><title>Sale</title></head></html>", { headers: { "content-type": "text/html" } }),
    });
    // A clock that stands still: all the requests fall in one minute's window.
    server = await startTestServer({ FETCH_ALLOW_PRIVATE: "127.0.0.1/32" }, new TestClock());
  });
  afterAll(async () => {
    await server.close();
    site.stop(true);
  });

  test("create, update, re-cut, lint, import and auto-fill all count: after 30 of them, each is a 429", async () => {
    const client: ApiClient = await apiClient(server, "pro");
    // A link with an upload (counted: 1), whose kept source a new focal point re-cuts.
    const made = await client.call("/api/links", { method: "POST", body: form(png("card.png", makePng(120, 63))) });
    expect(made.status).toBe(201);
    const { linkSlug } = (await made.json()) as { linkSlug: string };
    let focal = 0.5;
    const paths: Record<string, () => Promise<Response>> = {
      create: () => client.call("/api/links", { method: "POST", body: form(png("bomb.png", bomb)) }),
      update: () => client.call(`/api/links/by-slug/${linkSlug}`, { method: "PUT", body: form(png("bomb.png", bomb)) }),
      recut: async () => {
        const { imageUrl } = (await (await client.call(`/api/links/by-slug/${linkSlug}`)).json()) as { imageUrl: string };
        return client.call(`/api/links/by-slug/${linkSlug}`, { method: "PUT", json: { ...card, imageUrl, focalX: (focal -= 0.1) } });
      },
      lint: () => client.call("/api/links/lint", { method: "POST", body: form(png("bomb.png", bomb)) }),
      import: () => client.call("/api/links", { method: "POST", json: { ...card, imageImportUrl: `${site.url}bomb.png` } }),
      autoFill: () => client.call("/api/links/metadata", { method: "POST", json: { url: `${site.url}page` } }),
    };
    const expected = (name: string) => (name === "autoFill" || name === "recut" ? 200 : 400);
    // 1 + 5 rounds of 6 = 31 would be one too many: the last round leaves out the re-cut.
    for (let round = 0; round < 5; round++)
      for (const [name, call] of Object.entries(paths)) {
        if (round === 4 && name === "recut") continue;
        expect({ name, status: (await call()).status }).toEqual({ name, status: expected(name) });
      }
    for (const [name, call] of Object.entries(paths)) expect({ name, status: (await call()).status }).toEqual({ name, status: 429 });
    // Saving a link without an image decodes nothing and is not counted.
    expect((await client.call(`/api/links/by-slug/${linkSlug}`, { method: "PUT", json: card })).status).toBe(200);
  });
});
