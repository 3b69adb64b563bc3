// Per-platform card variants (docs/decisions/0009) over real HTTP and a real database (SQLite or PostgreSQL): an upload's
// renditions (wide, square, X) cut around its focal point, each crawler family served its rendition and text
// override with the same og:url, a focal-only edit re-cut from the kept source, validation, the orphan sweep, and
// the CLI flags.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sweepUnusedUploads } from "../../src/links/images/sweep-unused.ts";
import { uploadsInUse } from "../../src/links/images/usage.ts";
import { MAX_RENDITION_BYTES, RENDITIONS, type RenditionId } from "../../src/previews/variants.ts";
import { decodeJpegPixels, makePng, nearestQuarterColour } from "../helpers/images.ts";
import {
  apiClient,
  crawlerAgents,
  seedApiToken,
  seedLink,
  seedSubscription,
  seedUser,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let owner: ApiClient;

const valid = {
  title: "Spring sale",
  description: "Everything 20 % off this week",
  targetUrl: "https://shop.example.com/sale",
};
const overrides = { x: { title: "Sale: 20 % off" }, whatsapp: { description: "20 % off everything, this week only" } };
/** Red, green / blue, white quarters, three times wider than high: every crop shape has room to move. */
const QUARTERS = makePng(2400, 800, { pattern: "quarters" });

function form(fields: Record<string, string>, image?: Uint8Array<ArrayBuffer>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  if (image) data.append("image", new File([image], "cover.png", { type: "image/png" }));
  return data;
}

async function create(fields: Record<string, string>, image?: Uint8Array<ArrayBuffer>) {
  const response = await owner.call("/api/links", { method: "POST", body: form({ ...valid, ...fields }, image) });
  expect(response.status).toBe(201);
  return response.json();
}

const crawl = async (link: { linkSlug: string }, agent: string) =>
  (
    await fetch(`${server.url}/go/${owner.userSlug}/${link.linkSlug}`, {
      headers: { "user-agent": agent },
      redirect: "manual",
    })
  ).text();

function meta(html: string, key: string): string | null {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[:]/g, "\\:")}" content="([^"]*)">`).exec(html);
  return match ? match[1]! : null;
}
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1] ?? null;

async function served(url: string) {
  const response = await fetch(url.startsWith("/") ? `${server.url}${url}` : url);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { bytes, image: await decodeJpegPixels(bytes) };
}

/** The quarter colour a rendition shows a quarter of the way down its centre column. */
const centreColour = async (url: string) => {
  const { image } = await served(url);
  return nearestQuarterColour(image, image.width / 2, Math.floor(image.height / 4));
};

const storedFile = (url: string) => join(server.dataDir, "uploads", url.replace("/uploads/", ""));
const uploadUrls = (link: { images: Record<RenditionId, string>; sourceImage: { url: string } }) => [
  ...Object.values(link.images),
  link.sourceImage.url,
];

beforeAll(async () => {
  server = await startTestServer();
  owner = await apiClient(server, "pro");
});
afterAll(() => server.close());

/** Which rendition each crawler family gets (Telegram and WhatsApp draw squares, X 2:1). */
const EXPECTED: Record<string, RenditionId> = {
  facebook: "wide",
  linkedin: "wide",
  slack: "wide",
  discord: "wide",
  imessage: "wide",
  mastodon: "wide",
  bluesky: "wide",
  pinterest: "wide",
  reddit: "wide",
  google: "wide",
  bing: "wide",
  x: "x",
  whatsapp: "square",
  telegram: "square",
};

describe("an upload's renditions, served by platform", () => {
  let link: Awaited<ReturnType<typeof create>>;

  beforeAll(async () => {
    link = await create(
      { customLinkSlug: "spring", focalX: "0.1", focalY: "0.5", variants: JSON.stringify(overrides) },
      QUARTERS,
    );
  });

  test("the link JSON has three renditions, the focal point, the overrides and the kept source", async () => {
    expect(link.images.wide).toBe(link.imageUrl);
    for (const url of uploadUrls(link)) expect(url).toMatch(/^\/uploads\/[a-z0-9]{32}\.jpg$/);
    expect(new Set(uploadUrls(link)).size).toBe(4);
    expect({ focalX: link.focalX, focalY: link.focalY, variants: link.variants }).toEqual({
      focalX: 0.1,
      focalY: 0.5,
      variants: { x: { title: overrides.x.title }, whatsapp: { description: overrides.whatsapp.description } },
    });
    expect(link.sourceImage).toMatchObject({ width: 2400, height: 800 });
    // The kept source is upright and bounded, not cropped.
    const { image } = await served(link.sourceImage.url);
    expect({ width: image.width, height: image.height }).toEqual({ width: 2400, height: 800 });
  });

  for (const [platform, rendition] of Object.entries(EXPECTED)) {
    test(`${platform} gets the ${rendition} rendition, its size, its text and the same og:url`, async () => {
      for (const agent of crawlerAgents.crawlers[platform]!) {
        const html = await crawl(link, agent);
        const imageUrl = `${server.url}${link.images[rendition]}`;
        expect({ agent, image: meta(html, "og:image"), twitter: meta(html, "twitter:image") }).toEqual({
          agent,
          image: imageUrl,
          twitter: imageUrl,
        });
        expect([meta(html, "og:image:width"), meta(html, "og:image:height")]).toEqual([
          String(RENDITIONS[rendition].width),
          String(RENDITIONS[rendition].height),
        ]);
        const shortUrl = `${server.url}/go/${owner.userSlug}/spring`;
        expect([meta(html, "og:url"), canonical(html)]).toEqual([shortUrl, shortUrl]);
        const title = platform === "x" ? overrides.x.title : valid.title;
        const description =
          platform === "whatsapp" ? overrides.whatsapp.description.replace(/&/g, "&amp;") : valid.description;
        expect([meta(html, "og:title"), meta(html, "twitter:title"), meta(html, "og:description")]).toEqual([
          title.replace(/&/g, "&amp;"),
          title.replace(/&/g, "&amp;"),
          description,
        ]);
      }
      // The file really has the size the page announces, and is light enough for WhatsApp.
      const { bytes, image } = await served(link.images[rendition]);
      expect({ width: image.width, height: image.height }).toEqual(RENDITIONS[rendition]);
      expect(bytes.byteLength).toBeLessThanOrEqual(MAX_RENDITION_BYTES);
    });
  }

  test("people still get the 302 to the target", async () => {
    const response = await fetch(`${server.url}/go/${owner.userSlug}/spring`, {
      headers: { "user-agent": crawlerAgents.people["chrome-windows"]! },
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(valid.targetUrl);
  });

  test("the focal point moves every crop: on the left the centre is red, on the right green", async () => {
    const right = await create({ focalX: "0.9", focalY: "0.5" }, QUARTERS);
    for (const id of ["wide", "square", "x"] as const) {
      expect([id, await centreColour(link.images[id])]).toEqual([id, "red"]);
      expect([id, await centreColour(right.images[id])]).toEqual([id, "green"]);
    }
  });

  test("changing only the focal point re-cuts from the kept source: new renditions, old ones removed, crawlers see the new crop", async () => {
    const moved = await create({ customLinkSlug: "moved", focalX: "0.9", focalY: "0.5" }, QUARTERS);
    expect(await crawl(moved, "WhatsApp/2.23.20.0")).toContain(moved.images.square);
    const response = await owner.call("/api/links/by-slug/moved", {
      method: "PUT",
      json: { ...valid, customLinkSlug: "moved", imageUrl: moved.imageUrl, focalX: 0.1 },
    });
    expect(response.status).toBe(200);
    const after = await response.json();
    expect({ focalX: after.focalX, focalY: after.focalY, source: after.sourceImage.url }).toEqual({
      focalX: 0.1,
      focalY: 0.5,
      source: moved.sourceImage.url,
    });
    for (const id of ["wide", "square", "x"] as const) {
      expect(after.images[id]).not.toBe(moved.images[id]);
      expect(existsSync(storedFile(moved.images[id]))).toBe(false);
      expect([id, await centreColour(after.images[id])]).toEqual([id, "red"]);
    }
    expect(existsSync(storedFile(after.sourceImage.url))).toBe(true);
    const html = await crawl(after, "WhatsApp/2.23.20.0");
    expect(meta(html, "og:image")).toBe(`${server.url}${after.images.square}`);
    // Saving again with the same focal point changes nothing.
    const again = await (
      await owner.call("/api/links/by-slug/moved", {
        method: "PUT",
        json: { ...valid, customLinkSlug: "moved", focalX: 0.1, focalY: 0.5 },
      })
    ).json();
    expect(again.images).toEqual(after.images);
  });

  test("an override is changed or removed alone; the others stay; crawlers see it at once", async () => {
    const edit = (variants: unknown) =>
      owner.call("/api/links/by-slug/spring", {
        method: "PUT",
        json: { ...valid, customLinkSlug: "spring", variants },
      });
    const cleared = await (await edit({ x: { title: "" } })).json();
    expect(cleared.variants).toEqual({ x: { title: null }, whatsapp: { description: overrides.whatsapp.description } });
    expect(cleared.images).toEqual(link.images);
    expect(meta(await crawl(link, "Twitterbot/1.0"), "og:title")).toBe(valid.title);
    const changed = await (await edit({ whatsapp: { description: "Only this week" } })).json();
    expect(changed.variants).toEqual({ x: { title: null }, whatsapp: { description: "Only this week" } });
    expect(meta(await crawl(link, "WhatsApp/2.23.20.0"), "og:description")).toBe("Only this week");
    expect(meta(await crawl(link, "TelegramBot (like TwitterBot)"), "og:description")).toBe(valid.description);
  });
});

describe("images without renditions", () => {
  test("an external image URL is every variant's image, with no size claimed", async () => {
    const external = "https://cdn.example.com/cover.png";
    const link = await create({ imageUrl: external, focalX: "0.2" });
    expect(link.images).toEqual({ wide: external, square: external, x: external });
    expect(link.sourceImage).toBeNull();
    for (const agent of [
      "Twitterbot/1.0",
      "WhatsApp/2.23.20.0",
      "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)",
    ]) {
      const html = await crawl(link, agent);
      expect(meta(html, "og:image")).toBe(external);
      expect(meta(html, "og:image:width")).toBeNull();
    }
  });

  test("a link from before variants serves its one image to every platform", async () => {
    const id = await seedLink(server.sql, owner.userId, {
      linkSlug: "legacy",
      ...valid,
      imageUrl: "/uploads/legacy.jpg",
    });
    await server.sql.run("UPDATE links SET image_width = 1200, image_height = 630 WHERE id = ?", id);
    const link = await (await owner.call("/api/links/by-slug/legacy")).json();
    expect(link.images).toEqual({
      wide: "/uploads/legacy.jpg",
      square: "/uploads/legacy.jpg",
      x: "/uploads/legacy.jpg",
    });
    for (const agents of Object.values(crawlerAgents.crawlers)) {
      const html = await crawl(link, agents[0]!);
      expect([meta(html, "og:image"), meta(html, "og:image:width"), meta(html, "og:image:height")]).toEqual([
        `${server.url}/uploads/legacy.jpg`,
        "1200",
        "630",
      ]);
    }
  });

  test("no image: images are null, the variants stay text-only", async () => {
    const link = await (
      await owner.call("/api/links", { method: "POST", json: { ...valid, variants: overrides } })
    ).json();
    expect(link.images).toEqual({ wide: null, square: null, x: null });
    expect(meta(await crawl(link, "Twitterbot/1.0"), "og:title")).toBe(overrides.x.title.replace(/&/g, "&amp;"));
    expect(meta(await crawl(link, "Twitterbot/1.0"), "og:image")).toBeNull();
  });
});

describe("renditions stay under WhatsApp's limit", () => {
  test("a noisy picture (the worst case for JPEG) is encoded at a lower quality until each rendition fits", async () => {
    const link = await create({}, makePng(500, 500, { pattern: "noise" }));
    for (const id of ["wide", "square", "x"] as const) {
      const { bytes, image } = await served(link.images[id]);
      expect({ id, width: image.width, height: image.height }).toEqual({ id, ...RENDITIONS[id] });
      expect(bytes.byteLength).toBeLessThanOrEqual(MAX_RENDITION_BYTES);
    }
  }, 60_000);
});

describe("validation", () => {
  const cases: Array<[string, unknown, string]> = [
    ["focal point over 1", { focalX: 1.5 }, "focalX: Focal point must be between 0 and 1"],
    ["negative focal point", { focalY: -0.1 }, "focalY: Focal point must be between 0 and 1"],
    ["focal point not a number", { focalX: "left" }, "focalX: Focal point must be between 0 and 1"],
    [
      "X title too long",
      { variants: { x: { title: "x".repeat(51) } } },
      "variants.x.title: X title must be 50 characters or less",
    ],
    [
      "WhatsApp description too long",
      { variants: { whatsapp: { description: "w".repeat(81) } } },
      "variants.whatsapp.description: WhatsApp description must be 80 characters or less",
    ],
    [
      "unknown override",
      { variants: { x: { description: "no" } } },
      'variants.x: X variant must be an object like {"title": "…"}',
    ],
    [
      "unknown platform",
      { variants: { linkedin: {} } },
      'variants: Variants must be an object like {"x": {"title": "…"}, "whatsapp": {"description": "…"}}',
    ],
  ];
  for (const [name, fields, message] of cases) {
    test(`${name}: 400 "${message}"`, async () => {
      const response = await owner.call("/api/links", { method: "POST", json: { ...valid, ...(fields as object) } });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
    });
  }

  test("multipart: focal points as text, variants as one JSON part; a part that is not JSON is refused", async () => {
    const bad = await owner.call("/api/links", { method: "POST", body: form({ ...valid, variants: "{x: 1" }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toStartWith("variants: Variants must be an object");
    const badFocal = await owner.call("/api/links", { method: "POST", body: form({ ...valid, focalY: "2" }) });
    expect((await badFocal.json()).message).toBe("focalY: Focal point must be between 0 and 1");
    const good = await owner.call("/api/links", {
      method: "POST",
      body: form({ ...valid, focalX: "0.25", variants: JSON.stringify({ whatsapp: { description: "Short" } }) }),
    });
    expect(good.status).toBe(201);
    expect(await good.json()).toMatchObject({
      focalX: 0.25,
      focalY: 0.5,
      variants: { x: { title: null }, whatsapp: { description: "Short" } },
    });
  });
});

describe("stored files", () => {
  test("deleting a link removes its renditions and kept source at once", async () => {
    const link = await create({}, makePng(600, 400));
    for (const url of uploadUrls(link)) expect(existsSync(storedFile(url))).toBe(true);
    expect((await owner.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(204);
    for (const url of uploadUrls(link)) expect(existsSync(storedFile(url))).toBe(false);
  });

  test("the orphan sweep keeps every file of a live link and removes every file of a deleted one", async () => {
    const live = await create({}, makePng(600, 400));
    const gone = await create({}, makePng(400, 600));
    // As if the process had died between deleting the link and removing its files.
    await server.sql.run("UPDATE links SET deleted = ? WHERE id = ?", true, gone.id);
    const old = new Date(Date.now() - 2 * 3_600_000);
    for (const name of readdirSync(join(server.dataDir, "uploads")))
      utimesSync(join(server.dataDir, "uploads", name), old, old);
    const inUse = await uploadsInUse(server.ctx.db);
    for (const url of uploadUrls(live)) expect(inUse).toContain(url);
    // As on PostgreSQL, where nodes share the store: the grace keeps young uploads, and these are two hours old.
    await sweepUnusedUploads(server.ctx, true);
    for (const url of uploadUrls(live)) expect(existsSync(storedFile(url))).toBe(true);
    for (const url of uploadUrls(gone)) expect(existsSync(storedFile(url))).toBe(false);
  });
});

describe("CLI", () => {
  test("links create/update --focal, --x-title and --whatsapp-description, with clear refusals", async () => {
    const user = await seedUser(server.sql);
    await seedSubscription(server.sql, user.id, "pro");
    const { token } = await seedApiToken(server.sql, user.id);
    const home = mkdtempSync(join(tmpdir(), "linkprev-cli-"));
    const image = join(home, "cover.png");
    writeFileSync(image, QUARTERS);
    // Asynchronously: the server answering it runs in this process.
    const run = async (...args: string[]) => {
      const child = Bun.spawn([process.execPath, join(import.meta.dir, "../../cli/linkprev.ts"), ...args], {
        env: { ...process.env, HOME: home, LINKPREV_SERVER: server.url, LINKPREV_TOKEN: token },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      return { code, stdout, stderr };
    };
    try {
      const base = [
        "links",
        "create",
        "--target",
        valid.targetUrl,
        "--title",
        valid.title,
        "--description",
        valid.description,
        "--slug",
        "cli",
      ];
      const created = await run(
        ...base,
        "--image",
        image,
        "--focal",
        "0.1,0.5",
        "--x-title",
        "For X",
        "--whatsapp-description",
        "For WhatsApp",
        "--json",
      );
      expect(created.stderr).toBe("");
      const link = JSON.parse(created.stdout);
      expect(link).toMatchObject({
        focalX: 0.1,
        focalY: 0.5,
        variants: { x: { title: "For X" }, whatsapp: { description: "For WhatsApp" } },
      });
      expect(await centreColour(link.images.square)).toBe("red");

      const updated = await run("links", "update", "cli", "--focal", "0.9,0.5", "--x-title", "", "--json");
      expect(updated.stderr).toBe("");
      const after = JSON.parse(updated.stdout);
      expect(after).toMatchObject({
        focalX: 0.9,
        variants: { x: { title: null }, whatsapp: { description: "For WhatsApp" } },
      });
      expect(await centreColour(after.images.square)).toBe("green");

      for (const focal of ["2,0.5", "0.5", "a,b", "0.5,"]) {
        const refused = await run("links", "update", "cli", "--focal", focal);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain("--focal must be two numbers from 0 to 1");
      }
      const tooLong = await run("links", "update", "cli", "--x-title", "x".repeat(51));
      expect(tooLong.code).not.toBe(0);
      expect(tooLong.stderr).toContain("X title must be 50 characters or less");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});
