// The link editor's QR section and a device rule's app in a real browser (issue 52, decisions 0060 and 0067): the
// code is drawn live in the style being changed, a style that would not scan shows why, a logo is uploaded, the
// downloads decode (jsqr, not the library that drew them) in the chosen style, and the style is saved for the link.
import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import jsQR from "jsqr";
import { hydrated, pngBytes, subscribedUser, watchConsole } from "./helpers.ts";

/** The downloaded image drawn on the page's canvas at `side` px, read back by jsqr. */
async function decodeInBrowser(page: Page, bytes: Buffer, type: string, side = 600): Promise<string | undefined> {
  const pixels = await page.evaluate(
    async ({ b64, type, side }) => {
      const image = new Image();
      image.src = `data:${type};base64,${b64}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = canvas.height = side;
      const context = canvas.getContext("2d")!;
      context.drawImage(image, 0, 0, side, side);
      // As base64: a plain array of every channel is megabytes of JSON.
      const data = context.getImageData(0, 0, side, side).data;
      let text = "";
      for (let i = 0; i < data.length; i += 0x8000) text += String.fromCharCode(...data.subarray(i, i + 0x8000));
      return btoa(text);
    },
    { b64: bytes.toString("base64"), type, side },
  );
  return jsQR(new Uint8ClampedArray(Buffer.from(pixels, "base64")), side, side)?.data;
}

async function download(page: Page, name: string): Promise<Buffer> {
  const waiting = page.waitForEvent("download");
  await page.getByRole("link", { name, exact: true }).click();
  return readFileSync((await (await waiting).path())!);
}

test("the QR section: the style changes live, a refusal says why, a logo, downloads in the style, saved for the link", async ({
  page,
}) => {
  const errors = watchConsole(page);
  await subscribedUser(page, "pro");
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: {
      title: "Menu",
      description: "Tonight's menu",
      targetUrl: "https://example.com/menu",
      customLinkSlug: "menu",
    },
  });
  const { shortUrl } = (await made.json()) as { shortUrl: string };
  await page.goto("/admin/link/edit/menu");
  await hydrated(page);

  const section = page.getByRole("region", { name: "QR code" });
  await expect(section).toContainText("Your default style.");
  const preview = section.getByTestId("qr-preview");
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);

  // Too little contrast: the server's reason instead of a code, and nothing to download or save.
  await section.getByLabel("Dark colour", { exact: true }).fill("#cccccc");
  await expect(section.getByTestId("qr-refused")).toContainText("too little contrast to scan");
  await expect(section.getByRole("link", { name: "SVG" })).toHaveCount(0);
  await expect(section.getByRole("button", { name: "Use for this link" })).toBeDisabled();

  await section.getByLabel("Dark colour", { exact: true }).fill("#1a237e");
  await section.getByLabel("Module shape", { exact: true }).selectOption("dots");
  await section.getByLabel("Corner shape", { exact: true }).selectOption("dot");
  await expect(section.getByRole("link", { name: "SVG" })).toHaveAttribute("href", /shape=dots&finder=dot/);
  await expect(preview).toBeVisible();

  // The logo: uploaded through the image pipeline, then drawn in the middle at level H.
  await section.getByLabel("Upload a logo (JPEG, PNG or WebP)").setInputFiles({
    name: "logo.png",
    mimeType: "image/png",
    buffer: pngBytes(120, 80),
  });
  await expect(section.getByLabel("Logo in the middle")).toBeChecked();
  await expect(section.getByText("Logo (120×80): replace it")).toBeVisible();
  await section.getByLabel("Logo size", { exact: true }).selectOption({ label: "Large" });
  await expect(section.getByRole("link", { name: "SVG" })).toHaveAttribute("href", /logo=1&/);

  const svg = await download(page, "SVG");
  expect(svg.toString()).toContain('fill="#1a237e"');
  expect(svg.toString()).toContain("<image ");
  expect(await decodeInBrowser(page, svg, "image/svg+xml")).toBe(`${shortUrl}?qr=1`);
  const png = await download(page, "PNG 2048 px");
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2048, 2048]);
  expect(await decodeInBrowser(page, png, "image/png")).toBe(`${shortUrl}?qr=1`);

  await section.getByRole("button", { name: "Use for this link" }).click();
  await expect(page.getByText("This link's code has its own style.").first()).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(section).toContainText("This link's own style.");
  await expect(section.getByLabel("Module shape", { exact: true })).toHaveValue("dots");
  const link = await (await page.request.get("/api/links/by-slug/menu")).json();
  expect(link.qrStyle).toMatchObject({ fg: "#1a237e", shape: "dots", finder: "dot", logo: true, logoSize: 0.38 });
  expect(errors).toEqual([]);
});

test("a device rule for iPhone opens the app named in its App URL field; a script address is refused at the field", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Title", { exact: true }).fill("Our app");
  await page.getByLabel("Description", { exact: true }).fill("Get it");
  await page.getByLabel("Target URL").fill("https://example.com/app");
  await page.getByText("Expiry, password and targets").click();
  await page.getByRole("button", { name: "Add a rule" }).click();
  await expect(page.getByLabel("App URL")).toHaveCount(0);
  await page.getByLabel("Device").selectOption("ios");
  await page.getByLabel("Rule target URL").fill("https://apps.apple.com/app/id1");
  await page.getByLabel("App URL").fill("javascript:alert(1)");
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "javascript" })).toBeVisible();
  await page.getByLabel("App URL").fill("ourapp://item/42");
  await page.getByRole("button", { name: "Create Link" }).click();
  await page.waitForURL(/\/admin$/);
  const [link] = (await (await page.request.get("/api/links")).json()) as Array<{ linkSlug: string; rules: unknown }>;
  expect(link!.rules).toEqual([
    { when: { device: "ios" }, targetUrl: "https://apps.apple.com/app/id1", appUrl: "ourapp://item/42" },
  ]);
  await page.goto(`/admin/link/edit/${link!.linkSlug}`);
  await hydrated(page);
  await expect(page.getByLabel("App URL")).toHaveValue("ourapp://item/42");
  // Desktop opens no app: the field goes, and so does its value.
  await page.getByLabel("Device").selectOption("desktop");
  await expect(page.getByLabel("App URL")).toHaveCount(0);
});
