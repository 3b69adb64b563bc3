// The dashboard as a new user meets it: a search finds every word in any order, choosing an order applies it at
// once, "New version" changes the row's address and what Copy copies, and deleted links say when they went.
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { hydrated, subscribedUser } from "./helpers.ts";

const agents = JSON.parse(readFileSync(new URL("../fixtures/crawler-agents.json", import.meta.url), "utf8")) as {
  crawlers: Record<string, string[]>;
};

async function makeLink(
  page: Page,
  data: { title: string; description?: string; targetUrl?: string; customLinkSlug: string },
) {
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: { description: "A card", targetUrl: "https://example.com/", ...data },
  });
  expect(made.status()).toBe(201);
  return (await made.json()) as { id: number; shortUrl: string };
}

const rowTitles = (page: Page) => page.getByTestId("link-row").locator("p.font-semibold").allTextContents();

test("search finds all the words in any order, in title, description, slug and target", async ({ page }) => {
  await subscribedUser(page, "pro");
  await makeLink(page, { title: "Podcast Sale", customLinkSlug: "pod" });
  await makeLink(page, { title: "Summer Sale", customLinkSlug: "summer" });
  await makeLink(page, {
    title: "Team",
    description: "Our newsletter archive",
    targetUrl: "https://news.example.org/team",
    customLinkSlug: "crew",
  });
  await page.goto("/admin");
  const search = page.getByRole("searchbox", { name: "Search links" });
  await search.fill("sale podcast");
  await search.press("Enter");
  await expect(page.getByTestId("search-result")).toContainText('1 link matches "sale podcast"');
  expect(await rowTitles(page)).toEqual(["Podcast Sale"]);
  // "newsletter" only in the description, "crew" only in the slug, "news.example" only in the target.
  await search.fill("crew newsletter news.example");
  await search.press("Enter");
  expect(await rowTitles(page)).toEqual(["Team"]);
});

test("choosing an order applies it at once, and a search keeps it", async ({ page }) => {
  await subscribedUser(page, "pro");
  const viewed = await makeLink(page, { title: "Viewed sale", customLinkSlug: "viewed" });
  await makeLink(page, { title: "Newer sale", customLinkSlug: "newer" });
  await page.request.get(viewed.shortUrl, { maxRedirects: 0 });
  await page.goto("/admin");
  expect(await rowTitles(page)).toEqual(["Newer sale", "Viewed sale"]);
  await expect(async () => {
    await page.goto("/admin");
    await page.getByRole("navigation", { name: "Sort links" }).getByRole("link", { name: "Most viewed" }).click();
    expect(await rowTitles(page)).toEqual(["Viewed sale", "Newer sale"]);
  }).toPass({ timeout: 5000 });
  await expect(page.getByRole("link", { name: "Most viewed" })).toHaveAttribute("aria-current", "true");
  const search = page.getByRole("searchbox", { name: "Search links" });
  await search.fill("sale");
  await search.press("Enter");
  expect(await rowTitles(page)).toEqual(["Viewed sale", "Newer sale"]);
  expect(new URL(page.url()).searchParams.get("sort")).toBe("views");
});

test("the search's example is not cut at 390 px", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.setViewportSize({ width: 390, height: 800 });
  await page.goto("/admin");
  const search = page.getByRole("searchbox", { name: "Search links" });
  // Typed in as a value, the example would scroll inside the box if the box cut it.
  await search.fill((await search.getAttribute("placeholder")) ?? "");
  const fits = await search.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth);
  expect(fits).toBe(true);
});

test("'New version' updates the row's address and what its Copy copies", async ({ page, context, baseURL }) => {
  await subscribedUser(page, "pro");
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const { shortUrl } = await makeLink(page, { title: "Winter coats", customLinkSlug: "coats" });
  expect((await page.request.get(shortUrl, { headers: { "user-agent": agents.crawlers.x![0]! } })).status()).toBe(200);
  const row = page.locator('[data-testid="link-row"][data-slug="coats"]');
  await expect(async () => {
    await page.goto("/admin");
    await hydrated(page);
    await row.getByRole("button", { name: "Card by platform for Winter coats" }).click();
    await expect(row.locator('[data-platform="x"]')).toContainText("1 fetch", { timeout: 500 });
  }).toPass({ timeout: 5000 });
  await row.locator('[data-platform="x"]').getByRole("button", { name: "New version for X" }).click();
  const address = `${shortUrl}/2`;
  await expect(row.getByTestId("short-address")).toHaveText(address);
  // The row's own Copy (beside Statistics), not the panel's.
  await row
    .getByRole("button", { name: `Copy ${address}` })
    .first()
    .click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
  // The fetch times name their time zone.
  await expect(row.locator('[data-platform="x"]')).toContainText(/last .+ (UTC|GMT)/);
});

test("deleted links say they are deleted, and when", async ({ page }) => {
  await subscribedUser(page, "pro");
  const { id } = await makeLink(page, { title: "Gone soon", customLinkSlug: "gone" });
  const origin = new URL(page.url()).origin;
  expect((await page.request.delete(`/api/links/${id}`, { headers: { origin } })).ok()).toBe(true);
  await page.goto("/admin");
  const today = new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date());
  await expect(page.getByTestId("deleted-links")).toContainText(`Gone soon`);
  await expect(page.getByTestId("deleted-on")).toHaveText(`deleted ${today}`);
});
