// Link rules in the editor: the UTM builder writes a preset's tags into the target URL (its parameters kept), the
// rules are checked at their fields with the server's messages, and what is saved shows as badges on the dashboard.
import { expect, test } from "@playwright/test";
import { hydrated, subscribedUser } from "./helpers.ts";

test("UTM builder, a visit cap, a password and a device rule: saved, shown on the dashboard, and kept by the edit page", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Title", { exact: true }).fill("App launch");
  await page.getByLabel("Description", { exact: true }).fill("Get the app");
  await page.getByLabel("Target URL").fill("https://example.com/app?ref=home");

  await page.getByText("UTM tags").click();
  await page.getByLabel("Preset").selectOption("linkedin");
  await page.getByLabel("utm_campaign").fill("spring launch");
  await page.getByRole("button", { name: "Add the tags to the target URL" }).click();
  await expect(page.getByLabel("Target URL")).toHaveValue(
    "https://example.com/app?ref=home&utm_source=linkedin&utm_medium=social&utm_campaign=spring+launch",
  );

  await page.getByText("Expiry, password and targets").click();
  await page.getByLabel("Maximum visits").fill("0");
  await page.getByRole("button", { name: "Add a rule" }).click();
  await page.getByLabel("Device").selectOption("ios");
  await page.getByLabel("Rule target URL").fill("https://apps.apple.com/app/id1");
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.getByText("must be at least 1")).toBeVisible();
  await page.getByLabel("Maximum visits").fill("100");
  await page.getByLabel("Password", { exact: true }).fill("s3cret");
  await page.getByRole("button", { name: "Create Link" }).click();
  await page.waitForURL(/\/admin$/);

  const badges = page.getByTestId("rule-badges").first();
  await expect(badges).toContainText("0 of 100 visits used");
  await expect(badges).toContainText("Password");
  await expect(badges).toContainText("1 target rule");

  await page.getByRole("link", { name: "Edit App launch" }).click();
  await hydrated(page);
  await expect(page.getByLabel("Maximum visits")).toHaveValue("100");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("placeholder", "Unchanged");
  await expect(page.getByLabel("Rule target URL")).toHaveValue("https://apps.apple.com/app/id1");
});

test("a link whose visits are used up, and one past its expiry, say so on the dashboard row and in the editor", async ({
  page,
  baseURL,
}) => {
  await subscribedUser(page, "pro");
  const origin = new URL(baseURL!).origin;
  const create = async (json: object) => {
    const response = await page.request.post("/api/links", {
      headers: { origin },
      data: { targetUrl: "https://example.com/offer", title: "Offer", description: "Limited", ...json },
    });
    expect(response.status()).toBe(201);
    return (await response.json()) as { shortUrl: string };
  };
  const capped = await create({ customLinkSlug: "capped-offer", maxClicks: 2 });
  await create({ customLinkSlug: "past-offer", expiresAt: "2020-01-01T00:00:00Z" });
  const person = {
    "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36",
  };
  for (let i = 0; i < 2; i++)
    expect((await page.request.get(capped.shortUrl, { headers: person, maxRedirects: 0 })).status()).toBe(302);

  await page.goto("/admin");
  const row = (slug: string) => page.locator(`[data-slug="${slug}"]`);
  await expect(row("capped-offer").getByTestId("rule-badges")).toContainText("Expired");
  await expect(row("capped-offer").getByTestId("badge-cap")).toHaveText("2 of 2 visits used");
  await expect(row("past-offer").getByTestId("badge-expired")).toHaveText("Expired");

  await page.goto("/admin/link/edit/capped-offer");
  await hydrated(page);
  await expect(page.getByTestId("editor-expired")).toHaveText("2 of 2 visits used");
  await expect(page.getByRole("status").filter({ hasText: "people no longer reach the target" })).toBeVisible();
  await page.goto("/admin/link/edit/past-offer");
  await hydrated(page);
  await expect(page.getByTestId("editor-expired")).toHaveText("Expired");
});
