// The /api/links API over real HTTP and a real database (SQLite or PostgreSQL): validation, slugs, quotas, ownership, images.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  contains,
  decodeJpegPixels,
  EXIF_MARKER,
  exifTiff,
  jpegSize,
  makeJpegWithExif,
  makePng,
  makeWebp,
  nearestQuarterColour,
} from "../helpers/images.ts";
import {
  apiClient,
  BILLING_ON,
  seedSubscription,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(BILLING_ON);
});
afterAll(() => server.close());

type Client = ApiClient;

const client = (plan: "basic" | "pro" | "enterprise" | null, slug?: string) => apiClient(server, plan, slug);

const valid = {
  title: "Spring sale",
  description: "Everything 20 % off this week",
  targetUrl: "https://shop.example.com/sale",
};
const count = async (sql: string, ...params: Array<string | number | boolean>) =>
  (await server.sql.get<{ n: number }>(sql, ...params))!.n;
const liveLinks = (userId: number) =>
  count("SELECT CAST(count(*) AS INTEGER) AS n FROM links WHERE user_id = ? AND deleted = ?", userId, false);

function form(
  fields: Record<string, string>,
  image?: { bytes: Uint8Array<ArrayBuffer>; name: string; type: string },
): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  if (image) data.append("image", new File([image.bytes], image.name, { type: image.type }));
  return data;
}

describe("create, read, list", () => {
  test("a JSON create returns 201 with the link and a generated short slug", async () => {
    const alice = await client("basic");
    const response = await alice.call("/api/links", { method: "POST", json: valid });
    expect(response.status).toBe(201);
    const link = await response.json();
    expect(link).toMatchObject({ ...valid, imageUrl: null, imageSource: null, viewsBot: 0, viewsHuman: 0 });
    expect(link.linkSlug).toMatch(/^[23456789abcdefghjkmnpqrstuvwxyz]{7}$/);
    expect(link.shortUrl).toBe(`${server.ctx.config.publicUrl}/go/${alice.userSlug}/${link.linkSlug}`);
    expect(await (await alice.call(`/api/links/by-slug/${link.linkSlug}`)).json()).toEqual(link);
  });

  test("a multipart create, as the web form sends it, and the list is newest first", async () => {
    const bob = await client("pro");
    const first = await bob.call("/api/links", {
      method: "POST",
      body: form({ ...valid, customLinkSlug: "first", imageUrl: "null", imageSource: "" }),
    });
    expect(first.status).toBe(201);
    const second = await bob.call("/api/links", {
      method: "POST",
      body: form({
        ...valid,
        title: "Second",
        customLinkSlug: "",
        imageUrl: "https://cdn.example.com/a.png",
        imageSource: "upload",
      }),
    });
    expect(second.status).toBe(201);
    expect(await second.json()).toMatchObject({
      title: "Second",
      imageUrl: "https://cdn.example.com/a.png",
      imageSource: "upload",
    });
    const list = await (await bob.call("/api/links")).json();
    expect(list.map((l: { title: string }) => l.title)).toEqual(["Second", "Spring sale"]);
    expect(Object.keys(list[0]).sort()).toEqual(
      [
        "awaitingDomain",
        "createdAt",
        "currentShortUrl",
        "description",
        "domain",
        "disabledReason",
        "focalX",
        "focalY",
        "id",
        "imageSource",
        "imageUrl",
        "images",
        "linkSlug",
        "scans",
        "shortUrl",
        "sourceImage",
        "status",
        "targetUrl",
        "title",
        "uniqueHumans",
        "variants",
        "version",
        "viewsBot",
        "viewsHuman",
        "warnings",
        "expiresAt",
        "maxClicks",
        "qrStyle",
        "visitsUsed",
        "expiredUrl",
        "hasPassword",
        "rules",
        "health",
      ].sort(),
    );
  });

  test("signed out is a 401", async () => {
    expect((await fetch(`${server.url}/api/links`)).status).toBe(401);
    expect(
      (
        await fetch(`${server.url}/api/links`, {
          method: "POST",
          body: JSON.stringify(valid),
          headers: { "content-type": "application/json" },
        })
      ).status,
    ).toBe(401);
  });
});

const ENCODED_TOO_LONG = "must be 2048 characters or less (as a URL, with its non-ASCII characters encoded)";
const LONG_ENCODED = `https://a.example/${"é".repeat(1000)}`;

describe("validation", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["title missing", { title: undefined }, "title: Title is required"],
    ["title blank", { title: "   " }, "title: Title is required"],
    ["title too long", { title: "x".repeat(61) }, "title: Title must be 60 characters or less"],
    ["title with NUL", { title: "a\u0000b" }, "title: Title contains a character that is not allowed"],
    ["description missing", { description: "" }, "description: Description is required"],
    [
      "description too long",
      { description: "x".repeat(161) },
      "description: Description must be 160 characters or less",
    ],
    ["target not a URL", { targetUrl: "not a url" }, "targetUrl: Please enter a valid URL"],
    ["javascript: target", { targetUrl: "javascript:alert(1)" }, "targetUrl: Please enter a valid URL"],
    ["data: target", { targetUrl: "data:text/html,<script>alert(1)</script>" }, "targetUrl: Please enter a valid URL"],
    ["ftp: target", { targetUrl: "ftp://files.example.com/x" }, "targetUrl: Please enter a valid URL"],
    ["target too long", { targetUrl: `https://example.com/${"a".repeat(2048)}` }, `targetUrl: URL ${ENCODED_TOO_LONG}`],
    // Stored percent-encoded (6 characters for each é): the limit is on that form, not on what was typed.
    ["target too long once encoded", { targetUrl: LONG_ENCODED }, `targetUrl: URL ${ENCODED_TOO_LONG}`],
    [
      "rule target too long once encoded",
      { rules: [{ when: { device: "ios" }, targetUrl: LONG_ENCODED }] },
      `rules.0.targetUrl: ${ENCODED_TOO_LONG}`,
    ],
    ["expiredUrl too long once encoded", { expiredUrl: LONG_ENCODED }, `expiredUrl: ${ENCODED_TOO_LONG}`],
    ["slug too long", { customLinkSlug: "a".repeat(21) }, "customLinkSlug: Custom URL must be 20 characters or less"],
    [
      "slug with bad characters",
      { customLinkSlug: "../etc/passwd" },
      "customLinkSlug: Only letters, numbers, underscores and hyphens are allowed",
    ],
    ["bad image source", { imageSource: "camera" }, "imageSource: Image source must be upload or ai"],
    ["non-http image URL", { imageUrl: "javascript:alert(1)" }, "imageUrl: Image URL must be a valid http(s) URL"],
  ];
  for (const [name, change, message] of cases) {
    test(`${name} → 400 "${message}", nothing stored`, async () => {
      const carol = await client("pro");
      const response = await carol.call("/api/links", { method: "POST", json: { ...valid, ...change } });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toBe(message);
      expect(await liveLinks(carol.userId)).toBe(0);
    });
  }

  test("a link to our own short URLs would loop and is refused", async () => {
    const dave = await client("pro");
    const response = await dave.call("/api/links", {
      method: "POST",
      json: { ...valid, targetUrl: `${server.ctx.config.publicUrl}/go/someone/x` },
    });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toBe(
      "targetUrl: The target URL cannot be a LinkPrev short URL or another address of this server",
    );
  });

  test("a body that is not JSON or form data is a 400", async () => {
    const erin = await client("pro");
    const response = await erin.call("/api/links", {
      method: "POST",
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(await liveLinks(erin.userId)).toBe(0);
  });
});

describe("custom slugs", () => {
  test("basic plan: custom slug refused with a pointer to pricing", async () => {
    const basic = await client("basic");
    const response = await basic.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "mine" } });
    expect(response.status).toBe(403);
    expect((await response.json()).message).toContain("/pricing");
    expect(await liveLinks(basic.userId)).toBe(0);
  });

  test("pro plan: custom slug taken, reserved, availability", async () => {
    const pro = await client("pro");
    expect(
      (await pro.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "spring" } })).status,
    ).toBe(201);
    const taken = await pro.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "spring" } });
    expect(taken.status).toBe(409);
    expect((await taken.json()).message).toBe("This custom URL is already taken");
    const reserved = await pro.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "Admin" } });
    expect(reserved.status).toBe(400);

    expect(await (await pro.call("/api/links/check-slug-availability?slug=spring")).json()).toEqual({
      available: false,
      message: "This custom URL is already taken",
    });
    expect(await (await pro.call("/api/links/check-slug-availability?slug=summer")).json()).toEqual({
      available: true,
      message: "Custom slug available",
    });
    expect(await (await pro.call("/api/links/check-slug-availability?slug=api")).json()).toEqual({
      available: false,
      message: "This custom URL is reserved",
    });
    expect((await pro.call("/api/links/check-slug-availability?slug=no%20spaces")).status).toBe(400);
    // Slugs are per user: someone else may use the same one.
    expect(
      await (await (await client("pro")).call("/api/links/check-slug-availability?slug=spring")).json(),
    ).toMatchObject({ available: true });
  });

  test("two concurrent requests for the same slug: exactly one wins, the other gets a 409", async () => {
    const racer = await client("enterprise");
    const statuses = await Promise.all(
      [1, 2, 3].map(
        async () =>
          (await racer.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "race" } })).status,
      ),
    );
    expect(statuses.sort()).toEqual([201, 409, 409]);
    expect(
      await count(
        "SELECT CAST(count(*) AS INTEGER) AS n FROM links WHERE user_id = ? AND link_slug = 'race'",
        racer.userId,
      ),
    ).toBe(1);
  });
});

describe("quotas and subscriptions", () => {
  test("25 concurrent creates against the basic quota: exactly 20 exist", async () => {
    const busy = await client("basic");
    const statuses = await Promise.all(
      Array.from(
        { length: 25 },
        async (_, i) =>
          (await busy.call("/api/links", { method: "POST", json: { ...valid, title: `Link ${i}` } })).status,
      ),
    );
    expect(statuses.filter((s) => s === 201).length).toBe(20);
    expect(statuses.filter((s) => s === 403).length).toBe(5);
    expect(await liveLinks(busy.userId)).toBe(20);
    const refused = await busy.call("/api/links", { method: "POST", json: valid });
    expect((await refused.json()).message).toBe(
      "You have used all 20 links of the Basic plan. Delete a link or upgrade at /pricing.",
    );
  });

  test("without a valid subscription creating is refused with a 402", async () => {
    const none = await client(null);
    const response = await none.call("/api/links", { method: "POST", json: valid });
    expect(response.status).toBe(402);
    expect((await response.json()).message).toContain("active subscription");

    const lapsed = await client(null);
    await seedSubscription(server.sql, lapsed.userId, "pro", {
      cancelAtPeriodEnd: true,
      currentPeriodEnd: Date.now() - 1000,
    });
    expect((await lapsed.call("/api/links", { method: "POST", json: valid })).status).toBe(402);

    const pastDue = await client(null);
    await seedSubscription(server.sql, pastDue.userId, "pro", { status: "past_due" });
    expect((await pastDue.call("/api/links", { method: "POST", json: valid })).status).toBe(402);

    // Cancelled but still inside the paid period: still valid.
    const ending = await client(null);
    await seedSubscription(server.sql, ending.userId, "pro", {
      cancelAtPeriodEnd: true,
      currentPeriodEnd: Date.now() + 86_400_000,
    });
    expect((await ending.call("/api/links", { method: "POST", json: valid })).status).toBe(201);
  });
});

describe("edit and delete", () => {
  test("edit changes fields and slug; the old short URL answers for the link (docs/decisions/0047), the new one works; an unchanged slug is fine", async () => {
    const ed = await client("pro");
    await ed.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "old" } });
    expect(
      (
        await fetch(`${server.url}/go/${ed.userSlug}/old`, {
          redirect: "manual",
          headers: { "user-agent": "Twitterbot/1.0" },
        })
      ).status,
    ).toBe(200);

    const same = await ed.call("/api/links/by-slug/old", {
      method: "PUT",
      body: form({ ...valid, title: "Renamed", customLinkSlug: "old" }),
    });
    expect(same.status).toBe(200);
    expect((await same.json()).title).toBe("Renamed");

    const moved = await ed.call("/api/links/by-slug/old", {
      method: "PUT",
      json: { ...valid, title: "Moved", customLinkSlug: "fresh", targetUrl: "https://example.org/" },
    });
    expect(moved.status).toBe(200);
    expect(await moved.json()).toMatchObject({ linkSlug: "fresh", title: "Moved", targetUrl: "https://example.org/" });
    const person = { "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0" };
    expect(
      (await fetch(`${server.url}/go/${ed.userSlug}/old`, { redirect: "manual", headers: person })).headers.get(
        "location",
      ),
    ).toBe("https://example.org/");
    const go = await fetch(`${server.url}/go/${ed.userSlug}/fresh`, { redirect: "manual", headers: person });
    expect(go.headers.get("location")).toBe("https://example.org/");

    await ed.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "other" } });
    expect(
      (await ed.call("/api/links/by-slug/fresh", { method: "PUT", json: { ...valid, customLinkSlug: "other" } }))
        .status,
    ).toBe(409);
    const invalid = await ed.call("/api/links/by-slug/fresh", { method: "PUT", json: { ...valid, title: "" } });
    expect(invalid.status).toBe(400);
    expect((await (await ed.call("/api/links/by-slug/fresh")).json()).title).toBe("Moved");
  });

  test("soft delete: the short URL 404s and is not counted, the link moves to the deleted list, deleting twice is a 404", async () => {
    const del = await client("basic");
    const link = await (await del.call("/api/links", { method: "POST", json: valid })).json();
    expect((await del.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(204);
    const go = await fetch(`${server.url}/go/${del.userSlug}/${link.linkSlug}`, {
      redirect: "manual",
      headers: { "user-agent": "Twitterbot/1.0" },
    });
    expect(go.status).toBe(404);
    await server.flushViews();
    expect(await count("SELECT CAST(count(*) AS INTEGER) AS n FROM views WHERE link_id = ?", link.id)).toBe(0);
    expect(await (await del.call("/api/links")).json()).toEqual([]);
    const deleted = await (await del.call("/api/links/deleted")).json();
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({ id: link.id, linkSlug: link.linkSlug });
    expect(deleted[0].deletedAt).toBeTruthy();
    expect((await del.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await del.call(`/api/links/by-slug/${link.linkSlug}`)).status).toBe(404);
  });

  test("ownership: another user cannot read, edit, delete or see the views of a link (404, never 403)", async () => {
    const owner = await client("pro");
    const intruder = await client("pro");
    const link = await (
      await owner.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "private" } })
    ).json();
    expect((await intruder.call("/api/links/by-slug/private")).status).toBe(404);
    expect(
      (await intruder.call("/api/links/by-slug/private", { method: "PUT", json: { ...valid, title: "Hijacked" } }))
        .status,
    ).toBe(404);
    expect((await intruder.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await intruder.call(`/api/links/${link.id}/views`)).status).toBe(404);
    expect(await (await intruder.call("/api/links")).json()).toEqual([]);
    expect((await (await owner.call("/api/links/by-slug/private")).json()).title).toBe(valid.title);
  });
});

describe("statistics", () => {
  test("stats totals and the per-day / per-platform views of a link", async () => {
    const stat = await client("pro");
    const link = await (
      await stat.call("/api/links", { method: "POST", json: { ...valid, customLinkSlug: "counted" } })
    ).json();
    const hit = (ua: string) =>
      fetch(`${server.url}/go/${stat.userSlug}/counted`, { redirect: "manual", headers: { "user-agent": ua } }).then(
        (r) => r.arrayBuffer(),
      );
    await hit("Twitterbot/1.0");
    await hit("Twitterbot/1.0");
    await hit("facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)");
    await hit(
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
    );
    await server.flushViews();

    expect(await (await stat.call("/api/links/stats")).json()).toEqual({
      totalLinks: 1,
      totalViews: 4,
      humanViews: 1,
      botViews: 3,
      uniqueHumans: 1,
      scans: 0,
    });
    expect((await (await stat.call("/api/links")).json())[0]).toMatchObject({ viewsBot: 3, viewsHuman: 1 });
    const views = await (await stat.call(`/api/links/${link.id}/views?days=7`)).json();
    expect(views.days).toHaveLength(7);
    expect(views.days[6]).toEqual({
      date: new Date().toISOString().slice(0, 10),
      human: 1,
      bot: 3,
      uniqueHumans: 1,
      scans: 0,
    });
    expect(views.days.slice(0, 6).every((d: { human: number; bot: number }) => d.human === 0 && d.bot === 0)).toBe(
      true,
    );
    expect(views.platforms).toEqual([
      { platform: "x", count: 2 },
      { platform: "facebook", count: 1 },
    ]);
    expect((await stat.call(`/api/links/${link.id}/views`)).status).toBe(200);
    expect((await stat.call(`/api/links/${link.id}/views?days=0`)).status).toBe(400);
  });
});

describe("images", () => {
  const upload = (who: Client, bytes: Uint8Array<ArrayBuffer>, name: string, type: string, slug?: string) =>
    who.call("/api/links", {
      method: "POST",
      body: form({ ...valid, ...(slug ? { customLinkSlug: slug } : {}) }, { bytes, name, type }),
    });
  const storedFile = (url: string) => join(server.dataDir, "uploads", url.replace("/uploads/", ""));

  test("a JPEG with EXIF is stored as 1200×630 without metadata, served with long cache and nosniff", async () => {
    const photographer = await client("pro");
    const response = await upload(photographer, await makeJpegWithExif(900, 900), "holiday.jpg", "image/jpeg");
    expect(response.status).toBe(201);
    const link = await response.json();
    expect(link.imageUrl).toMatch(/^\/uploads\/[a-z0-9]{32}\.jpg$/);
    expect(link.imageSource).toBe("upload");
    const served = await fetch(`${server.url}${link.imageUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("max-age=31536000");
    const bytes = new Uint8Array(await served.arrayBuffer());
    expect(await jpegSize(bytes)).toEqual({ width: 1200, height: 630 });
    expect(contains(bytes, EXIF_MARKER)).toBe(false);
    // The crawler page knows the size.
    const html = await (
      await fetch(`${server.url}/go/${photographer.userSlug}/${link.linkSlug}`, {
        headers: { "user-agent": "Twitterbot/1.0" },
      })
    ).text();
    expect(html).toContain('<meta property="og:image:width" content="1200">');
  });

  test("a phone photo stored sideways (EXIF Orientation 6) comes out upright; a PNG's eXIf is obeyed too", async () => {
    const photographer = await client("pro");
    const storedQuarters = async (bytes: Uint8Array<ArrayBuffer>, name: string, type: string) => {
      const response = await upload(photographer, bytes, name, type);
      expect(response.status).toBe(201);
      const image = await decodeJpegPixels(readFileSync(storedFile((await response.json()).imageUrl)));
      expect({ width: image.width, height: image.height }).toEqual({ width: 1200, height: 630 });
      return [
        nearestQuarterColour(image, 300, 157),
        nearestQuarterColour(image, 900, 157),
        nearestQuarterColour(image, 300, 472),
        nearestQuarterColour(image, 900, 472),
      ];
    };
    // Stored red, green / blue, white; turned a quarter clockwise for display: blue, red / white, green.
    expect(
      await storedQuarters(
        await makeJpegWithExif(800, 400, { pattern: "quarters", orientation: 6 }),
        "portrait.jpg",
        "image/jpeg",
      ),
    ).toEqual(["blue", "red", "white", "green"]);
    expect(
      await storedQuarters(await makeJpegWithExif(800, 400, { pattern: "quarters" }), "landscape.jpg", "image/jpeg"),
    ).toEqual(["red", "green", "blue", "white"]);
    // Orientation 3: upside down.
    expect(
      await storedQuarters(makePng(800, 420, { pattern: "quarters", exif: exifTiff(3) }), "flipped.png", "image/png"),
    ).toEqual(["white", "blue", "green", "red"]);
  });

  test("a PNG renamed .svg is accepted; an SVG renamed .png is refused; WebP works", async () => {
    const designer = await client("pro");
    expect((await upload(designer, makePng(320, 200), "logo.svg", "image/svg+xml")).status).toBe(201);
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
    const refused = await upload(designer, svg, "logo.png", "image/png");
    expect(refused.status).toBe(400);
    expect((await refused.json()).message).toBe("Please select an image file");
    const html = await upload(
      designer,
      new TextEncoder().encode("<html><script>alert(1)</script></html>"),
      "photo.jpg",
      "image/jpeg",
    );
    expect(html.status).toBe(400);
    expect((await upload(designer, await makeWebp(640, 480), "pic.webp", "image/webp")).status).toBe(201);
    expect(await liveLinks(designer.userId)).toBe(2);
  });

  test("an image over 5 MB is a 413 with the spec's message, and nothing is stored", async () => {
    const big = await client("pro");
    const bytes = new Uint8Array(5 * 1024 * 1024 + 1);
    bytes.set([0xff, 0xd8, 0xff]);
    const response = await upload(big, bytes, "huge.jpg", "image/jpeg");
    expect(response.status).toBe(413);
    expect((await response.json()).message).toBe("File size must be less than 5MB");
    expect(await liveLinks(big.userId)).toBe(0);
  });

  test("replacing or deleting removes the old file; unknown or malicious upload names are 404", async () => {
    const editor = await client("pro");
    const first = await (await upload(editor, makePng(100, 100), "a.png", "image/png", "pic")).json();
    expect(existsSync(storedFile(first.imageUrl))).toBe(true);
    const replaced = await (
      await editor.call("/api/links/by-slug/pic", {
        method: "PUT",
        body: form(
          { ...valid, customLinkSlug: "pic", imageUrl: "" },
          { bytes: makePng(50, 80), name: "b.png", type: "image/png" },
        ),
      })
    ).json();
    expect(replaced.imageUrl).not.toBe(first.imageUrl);
    expect(existsSync(storedFile(first.imageUrl))).toBe(false);
    expect(existsSync(storedFile(replaced.imageUrl))).toBe(true);
    expect((await fetch(`${server.url}${first.imageUrl}`)).status).toBe(404);

    // Keeping the image when only the text changes.
    const kept = await (
      await editor.call("/api/links/by-slug/pic", {
        method: "PUT",
        json: { ...valid, title: "Text only", imageUrl: replaced.imageUrl },
      })
    ).json();
    expect(kept.imageUrl).toBe(replaced.imageUrl);

    await editor.call(`/api/links/${replaced.id}`, { method: "DELETE" });
    expect(existsSync(storedFile(replaced.imageUrl))).toBe(false);
    for (const path of [
      "/uploads/..%2Flinkprev.db",
      "/uploads/linkprev.db",
      "/uploads/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
    ]) {
      expect((await fetch(`${server.url}${path}`)).status).toBe(404);
    }
  });
});
