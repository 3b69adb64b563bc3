// Platform previews in the browser: each platform's mockup draws the card with that platform's cuts (numbers from
// src/previews/platforms.ts), preview lint runs live in the editor, and the dashboard says which platforms fetched
// the card and which may still show an old one.
import { expect, test, type Locator, type Page, type TestInfo } from "@playwright/test";
import { readFileSync } from "node:fs";
import { MOCKUP_PLATFORMS, PLATFORMS, truncate, utf8Bytes, type PlatformId } from "../../src/previews/platforms.ts";
import { fakes, hydrated, pngBytes, subscribedUser } from "./helpers.ts";

// 58 characters (over X's 50) and 71 UTF-8 bytes (over Discord's 67, though it has fewer than 67 characters).
const LONG_TITLE = "Été à Évora: cafés, pâtisseries et rêves près de l’océan ☀";
// 140 characters, 420 bytes: over WhatsApp's 80 characters and Discord's 347 bytes.
const LONG_DESCRIPTION = "東京の新しいカフェと古い喫茶店を巡る旅。".repeat(7);
/** The platforms that show no description at all: X large cards, LinkedIn's feed, iMessage. */
const NO_DESCRIPTION: PlatformId[] = ["x", "linkedin", "imessage"];
const WIDTHS = [1280, 360];
const agents = JSON.parse(readFileSync(new URL("../fixtures/crawler-agents.json", import.meta.url), "utf8")) as {
  crawlers: Record<string, string[]>;
};

async function editorWithLongCard(page: Page) {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Title", { exact: true }).fill(LONG_TITLE);
  await page.getByLabel("Description", { exact: true }).fill(LONG_DESCRIPTION);
  await page.getByLabel("Target URL").fill("https://example.com/evora");
}

/** A screenshot of `target` kept in the test's output directory and attached to its report. */
async function shoot(target: Locator, name: string, info: TestInfo) {
  const path = info.outputPath(`${name}.png`);
  await target.screenshot({ path });
  await info.attach(name, { path, contentType: "image/png" });
}

const tab = (page: Page, id: PlatformId) => page.getByRole("tab", { name: PLATFORMS[id].name });

test("each mockup tab shows that platform's cut of a long title and description, at 1280 and 360 px", async ({
  page,
}, testInfo) => {
  await editorWithLongCard(page);
  await page
    .getByLabel("Choose an image")
    .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: pngBytes(1200, 630) });
  await expect(page.getByTestId("preview-image")).toBeVisible();
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const id of MOCKUP_PLATFORMS) {
      await tab(page, id).click();
      const panel = page.getByTestId(`mockup-${id}`);
      await expect(panel.getByTestId("mockup-title")).toHaveText(truncate(LONG_TITLE, PLATFORMS[id].title));
      if (NO_DESCRIPTION.includes(id)) await expect(panel.getByTestId("mockup-description")).toHaveCount(0);
      else
        await expect(panel.getByTestId("mockup-description")).toHaveText(
          truncate(LONG_DESCRIPTION, PLATFORMS[id].description),
        );
      // Nothing runs off the side of a phone.
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      ).toBe(true);
      await shoot(panel, `mockup-${id}-${width}px`, testInfo);
    }
  }

  // X: the cut title is over the image, the domain below; the full title is not shown.
  await tab(page, "x").click();
  await expect(page.getByTestId("mockup-x").getByTestId("mockup-image")).toBeVisible();
  await expect(page.getByTestId("mockup-x")).toContainText("From example.com");
  await expect(page.getByTestId("mockup-x")).not.toContainText(LONG_TITLE);
  // Discord cuts by bytes: the title has fewer characters than the limit, yet it is cut, and within 67 bytes.
  await tab(page, "discord").click();
  const discordTitle = (await page.getByTestId("mockup-discord").getByTestId("mockup-title").textContent())!;
  expect([...LONG_TITLE].length).toBeLessThan(PLATFORMS.discord.title!.max);
  expect(discordTitle.endsWith("…")).toBe(true);
  expect(utf8Bytes(discordTitle.slice(0, -1))).toBeLessThanOrEqual(PLATFORMS.discord.title!.max);
  // WhatsApp: at most two lines of title.
  await tab(page, "whatsapp").click();
  const whatsappTitle = page.getByTestId("mockup-whatsapp").getByTestId("mockup-title");
  expect(await whatsappTitle.evaluate((el) => getComputedStyle(el).webkitLineClamp)).toBe(
    String(PLATFORMS.whatsapp.titleLines),
  );
});

test("X draws its small 'summary' card when there is no image; the tabs move with the arrow keys", async ({
  page,
}, testInfo) => {
  await editorWithLongCard(page);
  await tab(page, "x").click();
  const x = page.getByTestId("mockup-x");
  await expect(x.getByTestId("mockup-image")).toHaveCount(0);
  await expect(x.getByTestId("mockup-title")).toHaveText(LONG_TITLE);
  await expect(x).toContainText("example.com");
  await shoot(x, "mockup-x-summary", testInfo);

  await expect(tab(page, "x")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(tab(page, "facebook")).toBeFocused();
  await expect(tab(page, "facebook")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toHaveAttribute("aria-labelledby", "preview-tab-facebook");
  await page.keyboard.press("End");
  await expect(tab(page, "imessage")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Card" })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(tab(page, "imessage")).toBeFocused();
});

test("a lint warning appears beside the field and the mockup while typing, and goes when fixed", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  let lintCalls = 0;
  page.on("request", (r) => r.url().includes("/api/links/lint") && lintCalls++);
  const titleCut = page.locator('#title-lint [data-rule="x-title-cut"]');
  await expect(titleCut).toHaveCount(0);
  await page
    .getByLabel("Title", { exact: true })
    .pressSequentially("A launch title that keeps going past what X shows");
  await expect(titleCut).toHaveCount(0);
  await page.getByLabel("Title", { exact: true }).pressSequentially(" today");
  await expect(titleCut).toBeVisible();
  await expect(titleCut).toHaveAttribute("data-severity", "warning");
  await expect(titleCut).toContainText("X:");
  await tab(page, "x").click();
  await expect(page.locator('#preview-warnings [data-rule="x-title-cut"]')).toBeVisible();
  await expect(tab(page, "x")).toContainText("warning");
  await page.getByLabel("Title", { exact: true }).fill("Spring launch");
  await expect(titleCut).toHaveCount(0);
  await expect(page.locator('#preview-warnings [data-rule="x-title-cut"]')).toHaveCount(0);

  // The picked image is judged by its own size: 64×48 is below every minimum.
  await expect(page.locator('#image-lint [data-rule="no-image"]')).toBeVisible();
  await page
    .getByLabel("Choose an image")
    .setInputFiles({ name: "small.png", mimeType: "image/png", buffer: pngBytes(64, 48) });
  await expect(page.locator('#image-lint [data-rule="image-below-minimum"]')).toContainText("64×48");
  await expect(page.locator('#image-lint [data-rule="image-below-minimum"]')).toHaveAttribute("data-severity", "error");
  await expect(page.locator('#image-lint [data-rule="no-image"]')).toHaveCount(0);
  await page
    .getByLabel("Choose an image")
    .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: pngBytes(1200, 630) });
  await expect(page.locator("#image-lint")).toHaveCount(0);
  expect(lintCalls).toBe(0);
});

test("editing a link with an uploaded image: the image rules judge the recorded source at once", async ({ page }) => {
  await subscribedUser(page, "pro");
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    multipart: {
      title: "Tiny",
      description: "A small image",
      targetUrl: "https://example.com/",
      customLinkSlug: "tiny",
      image: { name: "t.png", mimeType: "image/png", buffer: pngBytes(400, 300) },
    },
  });
  expect(made.status()).toBe(201);
  await page.goto("/admin/link/edit/tiny");
  await hydrated(page);
  await expect(page.locator('#image-lint [data-rule="image-too-small"]')).toContainText("400×300");
  await tab(page, "facebook").click();
  // Under 600×315 Facebook draws the small square image beside the text.
  await expect(page.getByTestId("mockup-facebook").getByTestId("mockup-image")).toHaveClass(/aspect-square/);
});

test("the dashboard says which platforms fetched the card, and flags them stale after a title edit", async ({
  page,
}, testInfo) => {
  await subscribedUser(page, "pro");
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: {
      title: "Autumn sale",
      description: "Everything half price",
      targetUrl: "https://example.com/",
      customLinkSlug: "autumn",
    },
  });
  expect(made.status()).toBe(201);
  const { shortUrl } = await made.json();
  const crawler = await page.request.get(shortUrl, { headers: { "user-agent": agents.crawlers.facebook![0]! } });
  expect(crawler.status()).toBe(200);

  const row = page.locator('[data-testid="link-row"][data-slug="autumn"]');
  const facebook = row.locator('[data-platform="facebook"]');
  const openPanel = async () => {
    await page.goto("/admin");
    await hydrated(page);
    await row.getByRole("button", { name: "Card by platform for Autumn sale" }).click();
  };
  // The view writer folds the fetch in a fraction of a second after traffic pauses. From loopback, not Meta's
  // network, the fetch is unverified (docs/verification.md).
  await expect(async () => {
    await openPanel();
    await expect(facebook).toContainText("1 fetch (1 unverified), last", { timeout: 500 });
  }).toPass({ timeout: 5000 });
  await expect(facebook).toHaveAttribute("data-stale", "false");
  await expect(facebook).not.toContainText("Shows the old card");
  const debuggerLink = facebook.getByRole("link", { name: /Open debugger for Facebook/ });
  await expect(debuggerLink).toHaveAttribute(
    "href",
    `https://developers.facebook.com/tools/debug/?q=${encodeURIComponent(shortUrl)}`,
  );
  await expect(debuggerLink).toHaveAttribute("target", "_blank");
  await expect(row.locator('[data-platform="x"]')).toContainText("Not fetched yet");

  const edited = await page.request.put("/api/links/by-slug/autumn", {
    headers: { origin },
    data: {
      title: "Autumn sale: last days",
      description: "Everything half price",
      targetUrl: "https://example.com/",
      customLinkSlug: "autumn",
    },
  });
  expect(edited.ok()).toBe(true);
  await openPanel();
  await expect(facebook).toHaveAttribute("data-stale", "true");
  await expect(facebook).toContainText("Shows the old card");
  await expect(row.getByTestId("card-fetches")).toContainText("1 platform may still show the old card.");
  await expect(row.locator('[data-platform="x"]')).toHaveAttribute("data-stale", "false");
  await shoot(row, "dashboard-card-by-platform", testInfo);
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(
    true,
  );
  await shoot(row, "dashboard-card-by-platform-360px", testInfo);
});

test("'New version' for a platform with no refresh tool shows the new address, with a copy button and a toast; the editor shares it", async ({
  page,
  context,
  baseURL,
}) => {
  await subscribedUser(page, "pro");
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: {
      title: "Winter sale",
      description: "Warm coats",
      targetUrl: "https://example.com/",
      customLinkSlug: "winter",
    },
  });
  const { shortUrl } = await made.json();
  expect((await page.request.get(shortUrl, { headers: { "user-agent": agents.crawlers.x![0]! } })).status()).toBe(200);

  const row = page.locator('[data-testid="link-row"][data-slug="winter"]');
  const x = row.locator('[data-platform="x"]');
  await expect(async () => {
    await page.goto("/admin");
    await hydrated(page);
    await row.getByRole("button", { name: "Card by platform for Winter sale" }).click();
    await expect(x).toContainText("1 fetch", { timeout: 500 });
  }).toPass({ timeout: 5000 });
  // The button calls the endpoint the platforms JSON names (POST /api/links/:id/versions).
  const created = page.waitForRequest((r) => r.method() === "POST" && /\/api\/links\/\d+\/versions$/.test(r.url()));
  await x.getByRole("button", { name: "New version for X" }).click();
  await created;
  await expect(page.getByTestId("toast")).toContainText("Version 2 created");
  const address = `${shortUrl}/2`;
  await expect(row.getByTestId("new-version")).toContainText(address);
  await row
    .getByTestId("new-version")
    .getByRole("button", { name: `Copy ${address}` })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  expect((await page.request.get(address, { headers: { "user-agent": agents.crawlers.x![0]! } })).status()).toBe(200);

  // The editor shows the address to share now, the new version's.
  await page.goto("/admin/link/edit/winter");
  await hydrated(page);
  await expect(page.getByTestId("share-address")).toContainText(address);
  await page
    .getByTestId("share-address")
    .getByRole("button", { name: `Copy ${address}` })
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  await expect(page.getByTestId("preview-url")).toHaveText(address);
});

/**
 * A new link whose title is then edited, as a subscribed user: returns the Facebook row's line on the re-scrape
 * LinkPrev asks for after the save, once it has come back.
 */
async function rescrapeOutcomeAfterEdit(page: Page, slug: string): Promise<Locator> {
  await subscribedUser(page, "pro");
  const origin = new URL(page.url()).origin;
  const card = { description: "Bright colours", targetUrl: "https://example.com/", customLinkSlug: slug };
  expect(
    (await page.request.post("/api/links", { headers: { origin }, data: { title: `Sale ${slug}`, ...card } })).status(),
  ).toBe(201);
  const row = page.locator(`[data-testid="link-row"][data-slug="${slug}"]`);
  const openPanel = async () => {
    await page.goto("/admin");
    await hydrated(page);
    await row.getByRole("button", { name: new RegExp(`^Card by platform for Sale ${slug}`) }).click();
  };
  await openPanel();
  await expect(row.locator('[data-platform="facebook"]')).toBeVisible();
  await expect(row.getByTestId("facebook-scrape")).toHaveCount(0);

  expect(
    (
      await page.request.put(`/api/links/by-slug/${slug}`, {
        headers: { origin },
        data: { title: `Sale ${slug}: last days`, ...card },
      })
    ).ok(),
  ).toBe(true);
  // The re-scrape is asked after the save answers: the panel shows its outcome once it has come back.
  await expect(async () => {
    await openPanel();
    await expect(row.getByTestId("facebook-scrape")).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 5000 });
  return row.getByTestId("facebook-scrape");
}

test("the Facebook row says whether the re-scrape LinkPrev asked for after an edit worked (fake Graph API)", async ({
  page,
}) => {
  const outcome = await rescrapeOutcomeAfterEdit(page, "summer");
  await expect(outcome).toHaveText(
    /^Re-scrape asked .+: done \(Facebook scraped the card again: “Scraped by the fake Graph API”\)$/,
  );
});

test("the Facebook row says when Facebook refused the re-scrape, in Facebook's words", async ({ page }) => {
  const { facebook } = await fakes();
  const refuse = (failure: object | null) =>
    fetch(`${facebook}/__test/fail-with`, { method: "POST", body: JSON.stringify(failure) });
  await refuse({
    idContains: "/autumn",
    message: "(#100) The URL could not be scraped: the server answered 403",
    code: 100,
  });
  try {
    const outcome = await rescrapeOutcomeAfterEdit(page, "autumn");
    await expect(outcome).toHaveText(
      /^Re-scrape asked .+: failed \(\(#100\) The URL could not be scraped: the server answered 403\)$/,
    );
  } finally {
    await refuse(null);
  }
});
