// A link's statistics page (labelled chart, range switch, the table under it, CSV download) and the dashboard's
// search and order, in a real browser on a wide screen and a phone.
import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { hydrated, subscribedUser } from "./helpers.ts";

const VIEWPORTS = [
  { name: "wide", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

async function createLink(page: Page, title: string, slug: string, targetUrl: string) {
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: { title, description: "A card", targetUrl, customLinkSlug: slug },
  });
  expect(made.ok()).toBe(true);
  return (await made.json()) as { currentShortUrl: string };
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("the statistics page draws a labelled chart, switches range, tables it and downloads it as CSV", async ({
      page,
    }) => {
      await subscribedUser(page, "pro");
      const { currentShortUrl } = await createLink(page, "Autumn sale", "autumn", "https://example.com/autumn");
      // Two people and a crawler; the counts reach the rollups within a fraction of a second when traffic pauses.
      // One came from a post on another site (its address has a path and a query), one typed the address.
      for (const referer of ["https://Forum.Example.net/thread/42?session=abc", null]) {
        await page.request.get(currentShortUrl, {
          maxRedirects: 0,
          headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0", ...(referer ? { referer } : {}) },
        });
      }
      await page.request.get(currentShortUrl, {
        headers: { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" },
      });

      await page.goto("/admin");
      await page.getByRole("link", { name: "Statistics of Autumn sale" }).click();
      await expect(page.getByRole("heading", { name: "Statistics: Autumn sale" })).toBeVisible();
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("stats-summary")).toContainText("2 people and 1 crawler fetches", {
          timeout: 200,
        });
      }).toPass({ timeout: 5000 });

      const chart = page.getByRole("img", { name: /People and crawlers per day/ });
      await expect(chart).toBeVisible();
      const box = (await chart.boundingBox())!;
      expect(box.width).toBeGreaterThan(viewport.width / 2 - 40);
      expect(box.width).toBeLessThanOrEqual(viewport.width);
      await expect(chart.locator("text", { hasText: "Date (UTC)" })).toBeVisible();
      await expect(chart.locator("text", { hasText: "Visits" })).toBeVisible();
      expect(await chart.locator('[data-axis="x"]').count()).toBeGreaterThanOrEqual(2);
      await expect(chart.locator('[data-series="People"]')).toHaveAttribute("d", /^M/);

      const table = page.getByRole("region", { name: "Visits per day (table)" });
      await expect(table.getByRole("row")).toHaveCount(31);
      await expect(table.getByRole("columnheader")).toHaveText(["Date", "People", "Crawlers"]);
      await expect(table.getByRole("row").last().getByRole("cell")).toHaveText(["2", "1"]);
      await expect(page.getByRole("img", { name: /Card fetches by platform: Slack 1/ })).toBeVisible();

      const referrers = page.getByRole("img", { name: "People by referrer: forum.example.net 1, Direct or none 1" });
      await expect(referrers).toBeVisible();
      expect((await referrers.boundingBox())!.width).toBeLessThanOrEqual(viewport.width);
      const referrerTable = page.getByRole("region", { name: "People by referrer (table)" });
      await expect(referrerTable.getByRole("columnheader")).toHaveText(["Referrer", "People"]);
      await expect(referrerTable.getByRole("rowheader")).toHaveText(["forum.example.net", "Direct or none"]);
      const referrerCsv = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download CSV (people by referrer)" }).click();
      const referrerFile = await referrerCsv;
      expect(referrerFile.suggestedFilename()).toBe("autumn-referrers-30d.csv");
      expect(readFileSync((await referrerFile.path())!, "utf8")).toBe(
        '"Referrer","People"\r\n"forum.example.net","1"\r\n"Direct or none","1"\r\n',
      );

      await page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "7 days" }).click();
      await expect(page).toHaveURL(/range=7$/);
      await expect(
        page.getByRole("navigation", { name: "Range" }).getByRole("link", { name: "7 days" }),
      ).toHaveAttribute("aria-current", "page");
      await expect(table.getByRole("row")).toHaveCount(8);

      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download CSV (visits per day)" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("autumn-days-7d.csv");
      const lines = readFileSync((await file.path())!, "utf8")
        .trimEnd()
        .split("\r\n");
      expect(lines[0]).toBe('"Date","People","Crawlers","Daily unique visitors","QR scans"');
      expect(lines).toHaveLength(8);
      expect(lines.at(-1)).toMatch(/^"\d{4}-\d{2}-\d{2}","2","1","\d+","0"$/);
    });

    test("the dashboard finds links by title, slug or target and sorts them by views", async ({ page }) => {
      await subscribedUser(page, "pro");
      await createLink(page, "Spring launch", "spring", "https://example.com/spring");
      const { currentShortUrl } = await createLink(page, "Careers", "jobs", "https://jobs.example.org/");
      await createLink(page, "Press kit", "press", "https://example.com/press");
      await page.request.get(currentShortUrl, {
        headers: { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" },
      });

      await page.goto("/admin");
      await hydrated(page);
      const rows = page.getByTestId("link-row");
      await expect(rows).toHaveCount(3);
      await expect(rows.first().getByTestId("thumbnail")).toBeVisible();
      await expect(rows.first().getByTestId("summary")).toContainText("No visits yet · created");

      await page.getByRole("searchbox", { name: "Search links" }).fill("jobs.example");
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page).toHaveURL(/q=jobs\.example/);
      await expect(rows).toHaveCount(1);
      await expect(rows.first()).toContainText("Careers");
      await expect(page.getByTestId("search-result")).toContainText('1 link matches "jobs.example"');

      await page.getByRole("link", { name: "Show all" }).click();
      await expect(rows).toHaveCount(3);
      await expect(rows.first()).toContainText("Press kit");
      await expect(async () => {
        await page.goto("/admin");
        await page.getByRole("navigation", { name: "Sort links" }).getByRole("link", { name: "Most viewed" }).click();
        await expect(page).toHaveURL(/sort=views/);
        await expect(rows.first()).toContainText("Careers", { timeout: 200 });
      }).toPass({ timeout: 5000 });
      await expect(rows.first().getByTestId("summary")).toContainText("1 crawler fetch");
    });
  });
}
