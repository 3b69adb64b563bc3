// Card variants in the editor: auto-fill from a page served locally (tests/fakes/web.ts; the e2e server allows
// 127.0.0.1 to its fetcher), the page's image imported only when accepted, the focal point picked on the image and
// the mockups drawing each platform's crop of it, and the per-platform text overrides.
import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { FETCHES_PER_MINUTE } from "../../src/links/metadata.ts";
import { PLATFORMS, type PlatformId } from "../../src/previews/platforms.ts";
import {
  RENDITIONS,
  WHATSAPP_DESCRIPTION_MAX,
  X_TITLE_MAX,
  focalCrop,
  type RenditionId,
} from "../../src/previews/variants.ts";
import { fakes, hydrated, pngBytes, subscribedUser, watchConsole } from "./helpers.ts";

/** NEWS_PAGE's og:description, entities decoded (tests/fakes/web.ts). */
const NEWS_DESCRIPTION = "Why guitars are back — and what it means for the charts — in 2026.";
const tab = (page: Page, id: PlatformId) => page.getByRole("tab", { name: PLATFORMS[id].name });

async function newLinkEditor(page: Page) {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
}

async function save(page: Page) {
  await page.getByRole("button", { name: "Create Link" }).click();
  await page.waitForURL(/\/admin$/);
}

async function savedLink(page: Page, slug: string) {
  const answer = await page.request.get(`/api/links/by-slug/${slug}`);
  expect(answer.ok()).toBe(true);
  return answer.json();
}

/** The object-position (in percent) the mockup's image is drawn with. */
async function drawnPosition(page: Page, id: PlatformId): Promise<[number, number]> {
  await tab(page, id).click();
  const position = await page
    .getByTestId(`mockup-${id}`)
    .getByTestId("mockup-image")
    .evaluate((img) => (img as HTMLImageElement).style.objectPosition);
  const [x, y] = position.split(" ").map((p) => Number.parseFloat(p));
  return [x!, y!];
}

/** Where the server's crop of a `width`×`height` source to `rendition` lies, as an object-position in percent. */
function serverCrop(
  width: number,
  height: number,
  rendition: RenditionId,
  focal: { x: number; y: number },
): [number, number] {
  const crop = focalCrop(width, height, RENDITIONS[rendition].width / RENDITIONS[rendition].height, focal.x, focal.y);
  const share = (offset: number, spare: number) => (spare > 0 ? (offset / spare) * 100 : 50);
  return [share(crop.left, width - crop.width), share(crop.top, height - crop.height)];
}

async function shoot(page: Page, name: string, info: TestInfo) {
  const path = info.outputPath(`${name}.png`);
  await page.locator("main").screenshot({ path });
  await info.attach(name, { path, contentType: "image/png" });
}

test("auto-fill fills only the empty fields; the page's image, once accepted, is imported as an upload on save", async ({
  page,
}) => {
  const errors = watchConsole(page);
  const { web } = await fakes();
  await newLinkEditor(page);
  await page.getByLabel("Custom URL").fill("autofilled");
  await page.getByLabel("Title", { exact: true }).fill("My own title");
  const target = page.getByLabel("Target URL");
  await target.focus();
  // A paste offers the fill; nothing is fetched until asked.
  let metadataCalls = 0;
  page.on("request", (r) => r.url().endsWith("/api/links/metadata") && metadataCalls++);
  await page.evaluate((url) => {
    const input = document.getElementById("targetUrl") as HTMLInputElement;
    const data = new DataTransfer();
    data.setData("text/plain", url);
    input.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true }));
  }, `${web}/news`);
  await target.fill(`${web}/news`);
  await expect(page.getByTestId("autofill")).toContainText("“Fill from page” fills the empty fields");
  expect(metadataCalls).toBe(0);

  await page.getByRole("button", { name: "Fill from page" }).click();
  await expect(page.getByTestId("autofill-note")).toHaveText("Filled the description from the page.");
  expect(metadataCalls).toBe(1);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("My own title");
  await expect(page.getByLabel("Description", { exact: true })).toHaveValue(NEWS_DESCRIPTION);

  // The image is only offered; the preview shows it once accepted.
  const suggestion = page.getByTestId("image-suggestion");
  await expect(suggestion.getByRole("img")).toHaveAttribute("src", `${web}/images/cover.png`);
  await expect(page.getByTestId("preview-image")).toHaveCount(0);
  await suggestion.getByRole("button", { name: "Use this image" }).click();
  await expect(suggestion).toHaveCount(0);
  await expect(page.getByTestId("preview-image")).toHaveAttribute("src", `${web}/images/cover.png`);
  await expect(page.getByTestId("import-note")).toBeVisible();
  // The fake page's image is on plain http, which the editor's CSP does not load: the picker says so, the save imports it.
  await expect(page.getByTestId("focal-unavailable")).toBeVisible();

  await save(page);
  const link = await savedLink(page, "autofilled");
  expect(link.title).toBe("My own title");
  expect(link.description).toBe(NEWS_DESCRIPTION);
  expect(link.imageSource).toBe("upload");
  expect(link.imageUrl).toContain("/uploads/");
  const image = await page.request.get(link.imageUrl);
  expect(image.headers()["content-type"]).toBe("image/jpeg");
  expect([...(await image.body()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  expect(link.sourceImage.url).toContain("/uploads/");
  expect(errors.filter((e) => !(e.includes("Content Security Policy") && e.includes(web)))).toEqual([]);
});

test("a refused page says why beside the target field, and the form carries on", async ({ page }) => {
  const errors = watchConsole(page);
  const { web } = await fakes();
  await newLinkEditor(page);
  await page.getByLabel("Target URL").fill(`${web}/json`);
  await page.getByRole("button", { name: "Fill from page" }).click();
  await expect(page.getByTestId("autofill-note")).toHaveText(
    /^Could not fill from the page: The address did not return an HTML page \(it sent application\/json/,
  );
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("");
  await expect(page.getByTestId("image-suggestion")).toHaveCount(0);
  // A target that is not a URL is judged at its field, without a request.
  await page.getByLabel("Target URL").fill("not a url");
  await page.getByRole("button", { name: "Fill from page" }).click();
  await expect(page.locator("#targetUrl-error")).toHaveText("Please enter a valid URL");
  // Past the per-minute limit of fetches the button says so too.
  const origin = new URL(page.url()).origin;
  for (let i = 0; i < FETCHES_PER_MINUTE; i++)
    await page.request.post("/api/links/metadata", { headers: { origin }, data: { url: `${web}/title-only` } });
  await page.getByLabel("Target URL").fill(`${web}/news`);
  await page.getByRole("button", { name: "Fill from page" }).click();
  await expect(page.getByTestId("autofill-note")).toHaveText(
    "Could not fill from the page: Too many requests. Please wait a minute and try again.",
  );
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("");
  // The browser logs the 422 and 429 responses itself; nothing else may go wrong.
  expect(errors.filter((e) => !/\b(422|429)\b/.test(e))).toEqual([]);
});

test("clicking the image moves the focal point: the mockups draw the server's crops, and the link saves it", async ({
  page,
}) => {
  await newLinkEditor(page);
  await page.getByLabel("Custom URL").fill("focal");
  await page.getByLabel("Title", { exact: true }).fill("Harbour at dawn");
  await page.getByLabel("Description", { exact: true }).fill("Boats leaving before sunrise");
  await page.getByLabel("Target URL").fill("https://example.com/harbour");
  await page
    .getByLabel("Choose an image")
    .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: pngBytes(1600, 900) });
  const picker = page.getByRole("slider", { name: "Focal point" });
  await expect(picker).toHaveAttribute("aria-valuetext", "50% from the left, 50% from the top");
  // Centred: a square crop of a 1600×900 image is its middle.
  await expect.poll(() => drawnPosition(page, "whatsapp")).toEqual([50, 50]);

  const box = (await picker.locator("img").boundingBox())!;
  await picker.locator("img").click({ position: { x: box.width * 0.7, y: box.height * 0.25 } });
  await expect(picker).toHaveAttribute("aria-valuetext", "70% from the left, 25% from the top");
  const marker = page.getByTestId("focal-marker");
  expect(Number.parseFloat((await marker.getAttribute("style"))!.match(/left: ([\d.]+)%/)![1]!)).toBeCloseTo(70, 0);
  // The square crop moves right (WhatsApp and Telegram); X's 2:1 crop of a 16:9 image can only move up or down.
  const whatsapp = await drawnPosition(page, "whatsapp");
  expect(whatsapp[0]).toBeGreaterThan(50);
  expect(whatsapp).toEqual(await drawnPosition(page, "telegram"));
  const x = await drawnPosition(page, "x");
  expect(x[0]).toBe(50);
  expect(x[1]).toBeLessThan(50);
  // The square image is drawn square, X's at 2:1.
  await tab(page, "telegram").click();
  const square = (await page.getByTestId("mockup-telegram").getByTestId("mockup-image").boundingBox())!;
  expect(square.width).toBeCloseTo(square.height, 0);
  await tab(page, "x").click();
  const wide = (await page.getByTestId("mockup-x").getByTestId("mockup-image").boundingBox())!;
  expect(wide.width / wide.height).toBeCloseTo(2, 1);

  // The keyboard moves it too, in 5% steps.
  await picker.focus();
  await page.keyboard.press("ArrowDown");
  await expect(picker).toHaveAttribute("aria-valuetext", "70% from the left, 30% from the top");
  await save(page);
  const link = await savedLink(page, "focal");
  expect(link.focalX).toBeCloseTo(0.7, 2);
  expect(link.focalY).toBeCloseTo(0.3, 2);

  // Editing: the picker shows the kept source, and each mockup draws exactly the crop the server cut.
  await page.goto("/admin/link/edit/focal");
  await hydrated(page);
  await expect(page.getByRole("slider", { name: "Focal point" }).locator("img")).toHaveAttribute(
    "src",
    link.sourceImage.url,
  );
  const focal = { x: link.focalX, y: link.focalY };
  await expect(page.getByRole("slider", { name: "Focal point" })).toHaveAttribute(
    "aria-valuetext",
    "70% from the left, 30% from the top",
  );
  for (const [id, rendition] of [
    ["x", "x"],
    ["whatsapp", "square"],
    ["telegram", "square"],
    ["facebook", "wide"],
  ] as const) {
    const [cutX, cutY] = serverCrop(link.sourceImage.width, link.sourceImage.height, rendition, focal);
    // Drawn once the kept source has loaded and its size is known.
    await expect(async () => {
      const [drawnX, drawnY] = await drawnPosition(page, id);
      expect(drawnX).toBeCloseTo(cutX, 2);
      expect(drawnY).toBeCloseTo(cutY, 2);
    }).toPass({ timeout: 5000 });
  }
  // Moving it on a saved link re-cuts the renditions from the kept source.
  await page.getByRole("slider", { name: "Focal point" }).focus();
  await page.keyboard.press("ArrowLeft");
  await page.getByRole("button", { name: "Update Link" }).click();
  await page.waitForURL(/\/admin$/);
  const moved = await savedLink(page, "focal");
  expect(moved.focalX).toBeCloseTo(0.65, 2);
  expect(moved.focalY).toBeCloseTo(0.3, 2);
  expect(moved.images.square).not.toBe(link.images.square);
});

test("per-platform text: checked as typed, shown in its own platform's mockup only, and saved", async ({
  page,
}, testInfo) => {
  await newLinkEditor(page);
  await page.getByLabel("Custom URL").fill("variants");
  await page.getByLabel("Title", { exact: true }).fill("The spring collection is here, with forty new pieces");
  await page
    .getByLabel("Description", { exact: true })
    .fill("Linen shirts, light jackets and sandals for warm days, made in Portugal from organic cotton and cork.");
  await page.getByLabel("Target URL").fill("https://example.com/spring");
  await page
    .getByLabel("Choose an image")
    .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: pngBytes(1200, 630) });

  // The title is too long for X, the description for WhatsApp: until each has its own text.
  await expect(page.locator('#title-lint [data-rule="x-title-cut"]')).toBeVisible();
  await expect(page.locator('#description-lint [data-rule="whatsapp-description-long"]')).toBeVisible();
  const xTitle = page.getByLabel("Title on X");
  await expect(xTitle).toBeHidden();
  await page.getByText("Per-platform text").click();
  await xTitle.fill("x".repeat(X_TITLE_MAX + 1));
  await expect(page.locator("#xTitle-error")).toHaveText(`X title must be ${X_TITLE_MAX} characters or less`);
  await expect(page.locator("#xTitle-count")).toHaveText(`${X_TITLE_MAX + 1}/${X_TITLE_MAX}: 1 over the limit`);
  const whatsappDescription = page.getByLabel("Description on WhatsApp");
  await whatsappDescription.fill("w".repeat(WHATSAPP_DESCRIPTION_MAX + 1));
  await expect(page.locator("#whatsappDescription-error")).toHaveText(
    `WhatsApp description must be ${WHATSAPP_DESCRIPTION_MAX} characters or less`,
  );
  // Nothing is sent while an override is too long.
  let posts = 0;
  page.on("request", (r) => r.method() === "POST" && r.url().endsWith("/api/links") && posts++);
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.locator("#xTitle-error")).toBeVisible();
  expect(posts).toBe(0);

  await xTitle.fill("Spring: 40 new pieces");
  await expect(page.locator("#xTitle-error")).toHaveCount(0);
  await whatsappDescription.fill("Linen, jackets, sandals: made in Portugal.");
  await expect(page.locator("#whatsappDescription-error")).toHaveCount(0);

  await expect(page.locator('#title-lint [data-rule="x-title-cut"]')).toHaveCount(0);
  await expect(page.locator('#description-lint [data-rule="whatsapp-description-long"]')).toHaveCount(0);
  await tab(page, "x").click();
  await expect(page.getByTestId("mockup-x").getByTestId("mockup-title")).toHaveText("Spring: 40 new pieces");
  await tab(page, "whatsapp").click();
  await expect(page.getByTestId("mockup-whatsapp").getByTestId("mockup-description")).toHaveText(
    "Linen, jackets, sandals: made in Portugal.",
  );
  await expect(page.getByTestId("mockup-whatsapp").getByTestId("mockup-title")).toHaveText(
    "The spring collection is here, with forty new pieces",
  );
  for (const id of ["facebook", "telegram", "discord"] as const) {
    await tab(page, id).click();
    await expect(page.getByTestId(`mockup-${id}`).getByTestId("mockup-title")).not.toHaveText("Spring: 40 new pieces");
    await expect(page.getByTestId(`mockup-${id}`).getByTestId("mockup-description")).not.toHaveText(
      "Linen, jackets, sandals: made in Portugal.",
    );
  }
  await tab(page, "x").click();
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 1400 });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    await shoot(page, `editor-variants-${width}px`, testInfo);
  }

  await save(page);
  const link = await savedLink(page, "variants");
  expect(link.variants).toEqual({
    x: { title: "Spring: 40 new pieces" },
    whatsapp: { description: "Linen, jackets, sandals: made in Portugal." },
  });
  // Editing shows them, the section open.
  await page.goto("/admin/link/edit/variants");
  await hydrated(page);
  await expect(page.getByLabel("Title on X")).toHaveValue("Spring: 40 new pieces");
});
