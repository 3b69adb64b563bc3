// Preview lint over HTTP and a real database (SQLite or PostgreSQL): POST /api/links/lint (JSON and multipart,
// nothing stored), the `warnings` of the link JSON, and the uploaded image's recorded source size.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { makeJpegWithExif, makePng } from "../helpers/images.ts";
import { apiClient, BILLING_ON, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(BILLING_ON);
});
afterAll(() => server.close());

type Warning = { rule: string; severity: string; platforms: string[]; message: string };
type Client = ApiClient;

const client = (plan: "basic" | "pro" | null = "basic") => apiClient(server, plan);

const valid = {
  title: "Spring sale",
  description: "Everything 20 % off this week",
  targetUrl: "https://shop.example.com/sale",
};
const withImage = { ...valid, imageUrl: "https://cdn.example.com/card.jpg" };
const rules = (warnings: Warning[]) => warnings.map((w) => w.rule).sort();
/** The kept upright source of an upload (docs/decisions/0009), where the focal point is picked. */
const KEPT_SOURCE = /^\/uploads\/[a-z0-9]{32}\.jpg$/;

function form(
  fields: Record<string, string>,
  image?: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string },
): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  if (image) data.append("image", new File([image.bytes], image.name, { type: image.type }));
  return data;
}

const uploadsStored = () => readdirSync(join(server.dataDir, "uploads")).length;
const linksOf = async (userId: number) =>
  (await server.sql.get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM links WHERE user_id = ?", userId))!
    .n;
const sourceColumns = (id: number) =>
  server.sql.get<{ w: number | null; h: number | null; b: number | null; served: number | null }>(
    "SELECT image_source_width AS w, image_source_height AS h, image_source_bytes AS b, image_bytes AS served FROM links WHERE id = ?",
    id,
  );

describe("POST /api/links/lint", () => {
  test("JSON: the warnings of a card, and nothing stored", async () => {
    const linter = await client();
    const clean = await linter.call("/api/links/lint", { method: "POST", json: withImage });
    expect(clean.status).toBe(200);
    expect(await clean.json()).toEqual({ warnings: [] });

    const response = await linter.call("/api/links/lint", {
      method: "POST",
      json: {
        ...valid,
        title: "Déjà vu: the café reopens with crème brûlée",
        description: "Déjà vu: the café reopens with crème brûlée",
      },
    });
    expect(response.status).toBe(200);
    const { warnings } = (await response.json()) as { warnings: Warning[] };
    expect(rules(warnings)).toEqual(["no-image", "title-equals-description"]);
    for (const warning of warnings) {
      expect(["info", "warning", "error"]).toContain(warning.severity);
      expect(warning.platforms.length).toBeGreaterThan(0);
      expect(warning.message).toBeString();
    }
    const long = await (
      await linter.call("/api/links/lint", {
        method: "POST",
        json: {
          ...withImage,
          title: "ééééééééééééééééééééééééééééééééééééééééééééééééééééé",
          description: "d".repeat(81),
        },
      })
    ).json();
    expect(rules(long.warnings)).toEqual(["discord-title-bytes", "whatsapp-description-long", "x-title-cut"]);
    expect(await linksOf(linter.userId)).toBe(0);
  });

  test("multipart: a small image is measured (too small, heavy crop) but not saved", async () => {
    const linter = await client();
    const before = uploadsStored();
    const response = await linter.call("/api/links/lint", {
      method: "POST",
      body: form(valid, { bytes: makePng(400, 300), name: "small.png", type: "image/png" }),
    });
    expect(response.status).toBe(200);
    const { warnings } = (await response.json()) as { warnings: Warning[] };
    expect(rules(warnings)).toEqual(["image-heavy-crop", "image-too-small"]);
    expect(warnings.find((w) => w.rule === "image-too-small")!.platforms).toEqual(["facebook"]);
    expect(warnings.find((w) => w.rule === "image-too-small")!.message).toContain("400×300");
    expect(uploadsStored()).toBe(before);
    expect(await linksOf(linter.userId)).toBe(0);
  });

  test("multipart: a big 1.91:1 image (2400×1260) has no image warnings", async () => {
    const linter = await client();
    const big = await makeJpegWithExif(2400, 1260);
    const response = await linter.call("/api/links/lint", {
      method: "POST",
      body: form(valid, { bytes: big, name: "big.jpg", type: "image/jpeg" }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ warnings: [] });
  });

  test("validation errors are a create's: 400 with the field; a non-image is refused", async () => {
    const linter = await client();
    const missing = await linter.call("/api/links/lint", { method: "POST", json: { ...valid, title: "" } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ field: "title" });
    const tooLong = await linter.call("/api/links/lint", {
      method: "POST",
      json: { ...valid, description: "d".repeat(161) },
    });
    expect(tooLong.status).toBe(400);
    expect(await tooLong.json()).toMatchObject({ field: "description" });
    const badTarget = await linter.call("/api/links/lint", {
      method: "POST",
      json: { ...valid, targetUrl: "not a url" },
    });
    expect(await badTarget.json()).toMatchObject({ field: "targetUrl" });
    const notImage = await linter.call("/api/links/lint", {
      method: "POST",
      body: form(valid, { bytes: new TextEncoder().encode("<html></html>"), name: "a.png", type: "image/png" }),
    });
    expect(notImage.status).toBe(400);
    expect(await notImage.json()).toMatchObject({ field: "image" });
  });

  test("signed in is enough (no subscription needed); signed out is a 401", async () => {
    const unsubscribed = await client(null);
    expect((await unsubscribed.call("/api/links/lint", { method: "POST", json: valid })).status).toBe(200);
    expect(
      (
        await fetch(`${server.url}/api/links/lint`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(valid),
        })
      ).status,
    ).toBe(401);
  });
});

describe("warnings in the link JSON, and the recorded source image", () => {
  test("create, get, list and update carry the warnings of the stored card", async () => {
    const owner = await client();
    const created = await owner.call("/api/links", {
      method: "POST",
      json: { ...valid, customLinkSlug: "", description: valid.title },
    });
    expect(created.status).toBe(201);
    const link = await created.json();
    expect(rules(link.warnings)).toEqual(["no-image", "title-equals-description"]);
    expect(link.sourceImage).toBeNull();
    expect((await (await owner.call(`/api/links/by-slug/${link.linkSlug}`)).json()).warnings).toEqual(link.warnings);
    const [listed] = await (await owner.call("/api/links")).json();
    expect(listed.warnings).toEqual(link.warnings);

    const updated = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, { method: "PUT", json: withImage })
    ).json();
    expect(updated.warnings).toEqual([]);
  });

  test("an upload records its source's width, height and bytes; replaced by an external URL or removed, they are cleared", async () => {
    const owner = await client();
    const source = makePng(800, 600);
    const created = await owner.call("/api/links", {
      method: "POST",
      body: form(valid, { bytes: source, name: "photo.png", type: "image/png" }),
    });
    expect(created.status).toBe(201);
    const link = await created.json();
    expect(link.sourceImage).toEqual({
      width: 800,
      height: 600,
      bytes: source.byteLength,
      url: expect.stringMatching(KEPT_SOURCE),
    });
    expect(rules(link.warnings)).toEqual(["image-heavy-crop", "image-upscaled"]);
    const columns = await sourceColumns(link.id);
    expect(columns).toMatchObject({ w: 800, h: 600, b: source.byteLength });
    expect(columns!.served).toBeGreaterThan(0);

    // A text-only edit keeps the image and its record.
    const kept = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
        method: "PUT",
        json: { ...valid, title: "Text only", imageUrl: link.imageUrl },
      })
    ).json();
    expect(kept.sourceImage).toEqual(link.sourceImage);

    // A new upload replaces the record; an EXIF rotation counts as it is seen (upright).
    const portrait = await makeJpegWithExif(640, 320, { orientation: 6 });
    const replaced = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
        method: "PUT",
        body: form({ ...valid, imageUrl: "" }, { bytes: portrait, name: "p.jpg", type: "image/jpeg" }),
      })
    ).json();
    expect(replaced.sourceImage).toEqual({
      width: 320,
      height: 640,
      bytes: portrait.byteLength,
      url: expect.stringMatching(KEPT_SOURCE),
    });
    expect(rules(replaced.warnings)).toContain("image-heavy-crop");

    const external = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, { method: "PUT", json: withImage })
    ).json();
    expect(external.sourceImage).toBeNull();
    expect(external.warnings).toEqual([]);
    expect(await sourceColumns(link.id)).toEqual({ w: null, h: null, b: null, served: null });

    const uploadedAgain = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
        method: "PUT",
        body: form({ ...valid }, { bytes: source, name: "photo.png", type: "image/png" }),
      })
    ).json();
    expect(uploadedAgain.sourceImage).not.toBeNull();
    const removed = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, { method: "PUT", json: { ...valid, imageUrl: "" } })
    ).json();
    expect(removed.sourceImage).toBeNull();
    expect(rules(removed.warnings)).toEqual(["no-image"]);
    expect(await sourceColumns(link.id)).toEqual({ w: null, h: null, b: null, served: null });
  });
});
