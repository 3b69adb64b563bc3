// Verified and unverified crawler fetches as an owner sees them in Chromium (docs/decisions/0066): the dashboard's
// row, the platforms panel, the statistics table and the link's timeline. The fetches come "from" X's network and
// from elsewhere through X-Forwarded-For (the e2e server trusts it, tests/e2e/server.ts).
import { expect, test } from "@playwright/test";
import { createLink, hydrated, subscribedUser } from "./helpers.ts";

test("the dashboard, the platforms panel, the statistics and the timeline tell verified fetches from forged ones", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  const { currentShortUrl } = await createLink(page, {
    title: "Verified launch",
    description: "A card",
    targetUrl: "https://example.com/v",
    customLinkSlug: "vlaunch",
  });
  const fetchAs = async (ua: string, from: string) =>
    (
      await page.request.get(currentShortUrl, {
        maxRedirects: 0,
        headers: { "user-agent": ua, "x-forwarded-for": from },
      })
    ).status();
  // X's crawler from X's network, the same User-Agent forged from a home address, X's check with a browser's
  // User-Agent from its network, and iMessage (the sender's phone).
  expect(await fetchAs("Twitterbot/1.0", "199.16.156.1")).toBe(200);
  expect(await fetchAs("Twitterbot/1.0", "81.2.69.142")).toBe(200);
  expect(
    await fetchAs(
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15",
      "104.244.42.1",
    ),
  ).toBe(302);
  expect(
    await fetchAs(
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0",
      "81.2.69.142",
    ),
  ).toBe(200);

  // The counts reach the rollups within a fraction of a second when traffic pauses.
  const row = page.locator('[data-testid="link-row"][data-slug="vlaunch"]');
  await expect(async () => {
    await page.goto("/admin");
    await expect(row.getByTestId("platforms")).toContainText("X 3 (2 verified, 1 unverified)", { timeout: 200 });
  }).toPass({ timeout: 5000 });
  await expect(row.getByTestId("platforms")).toContainText("iMessage 1");
  await expect(row.getByTestId("platforms")).not.toContainText("iMessage 1 (");

  await hydrated(page);
  await row.getByRole("button", { name: "Card by platform for Verified launch" }).click();
  const x = row.locator('[data-testid="platform-fetch"][data-platform="x"]');
  await expect(x).toContainText("3 fetches (2 verified, 1 unverified), last");

  await page.goto("/admin/link/stats/vlaunch");
  const table = page.getByRole("region", { name: "Card fetches by platform (table)" });
  await expect(table.getByRole("columnheader", { name: "Unverified" })).toBeVisible();
  await expect(table.getByRole("row", { name: /^X 3 2 1 0$/ })).toBeVisible();
  await expect(table.getByRole("row", { name: /^iMessage 1 0 0 1$/ })).toBeVisible();

  await page.goto("/admin/link/edit/vlaunch");
  const timeline = page.getByTestId("fetch-timeline");
  await expect(timeline.locator("li")).toHaveCount(4);
  await expect(timeline.locator("li").first()).toContainText("iMessage, unverifiable, fetched version 1");
  await expect(timeline.locator('li[data-verification="unverified"]')).toContainText(
    "X, unverified: not from its platform's network, fetched version 1",
  );
  await expect(timeline.locator("li").last()).toContainText("X, verified by its network, fetched version 1");
});
