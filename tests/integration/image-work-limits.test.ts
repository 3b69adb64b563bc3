// The limits on image work other than memory (decision 0043), over HTTP: a JPEG with too many scans is refused
// before decoding, a job past its deadline ends the Worker running it, a full queue is a 503 with Retry-After (each
// counted in /metrics, beside the jobs waiting and the pixels in use), and every path that decodes an image (create,
// update, a new focal point's re-cut, lint, import, auto-fill) counts against one per-user limit.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { TestClock } from "../helpers/clock.ts";
import { blackPng, makeJpegWithExif, makePng } from "../helpers/images.ts";
import { apiClient, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const card = {
  title: "Spring sale",
  description: "Everything 20 % off this week",
  targetUrl: "https://shop.example.com/sale",
};

function form(
  image: { name: string; type: string; bytes: Uint8Array<ArrayBuffer> },
  fields: Record<string, string> = card,
): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  data.append("image", new File([image.bytes], image.name, { type: image.type }));
  return data;
}
const png = (name: string, bytes: Uint8Array<ArrayBuffer>) => ({ name, type: "image/png", bytes });

const METRICS_TOKEN = "image-metrics-token-0123456789";
/** The image work metrics (unlabelled counters and gauges) as /metrics shows them now. */
async function imageMetrics(server: TestServer): Promise<Record<string, number>> {
  const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(response.status).toBe(200);
  const families = parsePrometheusTextFormat(await response.text()).filter((family) =>
    family.name.startsWith("linkprev_image_"),
  );
  return Object.fromEntries(
    families.map((family) => [family.name.replace(/^linkprev_image_/, ""), Number(family.metrics[0]!.value)]),
  );
}
/** How far each counter moved between two readings. */
const moved = (before: Record<string, number>, after: Record<string, number>, names: string[]) =>
  Object.fromEntries(names.map((name) => [name, (after[name] ?? 0) - (before[name] ?? 0)]));
const COUNTERS = ["jobs_refused_total", "jobs_timed_out_total", "jpeg_scans_refused_total"];

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
  beforeAll(async () => (server = await startTestServer({ APP_WORKERS: "0", METRICS_TOKEN })));
  afterAll(() => server.close());

  test("a progressive JPEG with 150 repeated scans is refused before decoding (and counted); the same JPEG as written is stored", async () => {
    const client = await apiClient(server, "pro");
    const before = await imageMetrics(server);
    const written = await makeJpegWithExif(64, 64);
    const hostile = repeatLastScan(written, 150);
    const refused = await client.call("/api/links", {
      method: "POST",
      body: form({ name: "scans.jpg", type: "image/jpeg", bytes: hostile }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(
      "This JPEG has more than 100 scans; save it again as a standard JPEG",
    );
    expect(server.ctx.images.workersStarted).toBe(0);
    const fine = await client.call("/api/links", {
      method: "POST",
      body: form({ name: "photo.jpg", type: "image/jpeg", bytes: written }),
    });
    expect(fine.status).toBe(201);
    expect(moved(before, await imageMetrics(server), COUNTERS)).toEqual({
      jobs_refused_total: 0,
      jobs_timed_out_total: 0,
      jpeg_scans_refused_total: 1,
    });
  });
});

describe("the decode deadline", () => {
  let server: TestServer;
  beforeAll(
    async () => (server = await startTestServer({ APP_WORKERS: "0", IMAGE_DEADLINE_MS: "500", METRICS_TOKEN })),
  );
  afterAll(() => server.close());

  test("an image still decoding after the deadline is a 422 saying so (and counted), and the Worker decoding it is ended", async () => {
    const client = await apiClient(server, "pro");
    const before = await imageMetrics(server);
    // 40 megapixels: decoding alone takes longer than half a second on any machine.
    const response = await client.call("/api/links", {
      method: "POST",
      body: form(png("huge.png", blackPng(16_000, 2_500))),
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toBe(
      "The image took more than 0.5 seconds to process; try a smaller or simpler image",
    );
    expect(server.ctx.images.workersStarted).toBe(1);
    expect(server.ctx.images.workersAlive).toBe(0);
    const after = await imageMetrics(server);
    expect(moved(before, after, COUNTERS)).toEqual({
      jobs_refused_total: 0,
      jobs_timed_out_total: 1,
      jpeg_scans_refused_total: 0,
    });
    // Its share of the budget was given back.
    expect(after.pixels_in_use).toBe(0);
  }, 60_000);
});

describe("a full queue", () => {
  let server: TestServer;
  // Two app workers, room for one to wait: the budget is the process's, so the third large image is turned away
  // whichever worker it reaches.
  beforeAll(async () => (server = await startTestServer({ APP_WORKERS: "2", IMAGE_QUEUE: "1", METRICS_TOKEN })));
  afterAll(() => server.close());

  test("an image that would have to wait behind a full queue is a 503 with Retry-After (counted); /metrics shows the one waiting and the pixels in use", async () => {
    const client = await apiClient(server, "pro");
    const before = await imageMetrics(server);
    // 25 megapixels each: two do not fit beside each other.
    const lint = () =>
      client.call("/api/links/lint", { method: "POST", body: form(png("large.png", blackPng(5_000, 5_000))) });
    let answered = false;
    const all = Promise.all([lint(), lint(), lint()]).finally(() => (answered = true));
    // The most /metrics showed while they ran.
    const most = { jobs_waiting: 0, pixels_in_use: 0 };
    while (!answered) {
      const now = await imageMetrics(server);
      for (const name of ["jobs_waiting", "pixels_in_use"] as const) most[name] = Math.max(most[name], now[name]!);
      await Bun.sleep(20);
    }
    const answers = await all;
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 200, 503]);
    const busy = answers.find((a) => a.status === 503)!;
    expect(busy.headers.get("retry-after")).toBe("5");
    expect(((await busy.json()) as { message: string }).message).toBe(
      "Too many images are being processed right now. Please try again in a moment.",
    );
    expect(most).toEqual({ jobs_waiting: 1, pixels_in_use: 25_000_000 });
    const after = await imageMetrics(server);
    expect(moved(before, after, COUNTERS)).toEqual({
      jobs_refused_total: 1,
      jobs_timed_out_total: 0,
      jpeg_scans_refused_total: 0,
    });
    expect({ jobs_waiting: after.jobs_waiting, pixels_in_use: after.pixels_in_use }).toEqual({
      jobs_waiting: 0,
      pixels_in_use: 0,
    });
  }, 120_000);

  test("a JPEG refused in an app worker is counted by the request thread, which serves /metrics", async () => {
    const client = await apiClient(server, "pro", "scans");
    const before = await imageMetrics(server);
    const hostile = repeatLastScan(await makeJpegWithExif(64, 64), 150);
    expect(
      (
        await client.call("/api/links/lint", {
          method: "POST",
          body: form({ name: "scans.jpg", type: "image/jpeg", bytes: hostile }),
        })
      ).status,
    ).toBe(400);
    expect(moved(before, await imageMetrics(server), COUNTERS)).toEqual({
      jobs_refused_total: 0,
      jobs_timed_out_total: 0,
      jpeg_scans_refused_total: 1,
    });
  });
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
        const { imageUrl } = (await (await client.call(`/api/links/by-slug/${linkSlug}`)).json()) as {
          imageUrl: string;
        };
        return client.call(`/api/links/by-slug/${linkSlug}`, {
          method: "PUT",
          json: { ...card, imageUrl, focalX: (focal -= 0.1) },
        });
      },
      lint: () => client.call("/api/links/lint", { method: "POST", body: form(png("bomb.png", bomb)) }),
      import: () =>
        client.call("/api/links", { method: "POST", json: { ...card, imageImportUrl: `${site.url}bomb.png` } }),
      autoFill: () => client.call("/api/links/metadata", { method: "POST", json: { url: `${site.url}page` } }),
    };
    const expected = (name: string) => (name === "autoFill" || name === "recut" ? 200 : 400);
    // The upload, one re-cut (it decodes and encodes for real: the slow one), then the others in turn: 30 in all.
    const others = Object.keys(paths).filter((name) => name !== "recut");
    const counted = ["recut", ...Array.from({ length: 28 }, (_, i) => others[i % others.length]!)];
    for (const name of counted)
      expect({ name, status: (await paths[name]!()).status }).toEqual({ name, status: expected(name) });
    for (const [name, call] of Object.entries(paths))
      expect({ name, status: (await call()).status }).toEqual({ name, status: 429 });
    // Saving a link without an image decodes nothing and is not counted.
    expect((await client.call(`/api/links/by-slug/${linkSlug}`, { method: "PUT", json: card })).status).toBe(200);
  });
});
