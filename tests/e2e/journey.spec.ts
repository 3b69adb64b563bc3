// The whole journey in Debian's Chromium against the real server, the fake Google and the fake Stripe.
import { expect, test } from "@playwright/test";
import { fakes, hydrated, pngBytes, signIn, watchConsole } from "./helpers.ts";

test("sign in → consent → subscribe → create a link → views → copy → edit → delete", async ({
  page,
  context,
  baseURL,
}, info) => {
  test.setTimeout(90_000);
  const shot = (name: string) => page.screenshot({ path: info.outputPath(`${name}.png`), fullPage: true });
  const errors = watchConsole(page);
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });

  // Sign in: without a subscription /admin sends the user to the plans, where consent is asked first.
  await signIn(page, { given_name: "Joana", family_name: "Pereira" });
  await expect(page).toHaveURL(/\/pricing$/);
  await hydrated(page);
  const consent = page.getByRole("dialog", { name: "Before you continue" });
  await expect(consent).toBeVisible();
  await shot("01-consent");
  await consent.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("toast")).toContainText("Acceptance required");
  await page.keyboard.press("Escape");
  await expect(consent).toBeVisible();
  await consent.getByLabel("I accept the terms and conditions").check();
  await consent.getByLabel("I accept the privacy policy").check();
  await consent.getByRole("button", { name: "Continue" }).click();
  await expect(consent).toBeHidden();
  await expect(page.getByTestId("toast")).toContainText("Your consent has been recorded successfully.");

  // Subscribe to Pro: the fake hosted checkout accepts the card and returns to /payment-success.
  await shot("02-pricing");
  await page.locator('[data-plan="pro"]').getByRole("button", { name: "Subscribe" }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=cs_test_/);
  await expect(page.getByText("Verifying your subscription...")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Payment Successful!" })).toBeVisible();
  await expect(page.getByTestId("plan-name")).toHaveText("Pro");
  await shot("03-payment-success");

  // Create a link with an uploaded image, watching the live preview follow the form.
  await page.getByRole("link", { name: "Create link now" }).click();
  await expect(page.getByRole("heading", { name: "Create New Link" })).toBeVisible();
  await hydrated(page);
  await page.getByLabel("Custom URL").fill("launch");
  await page.getByLabel("Title", { exact: true }).click();
  await expect(page.getByText("Custom slug available")).toBeVisible();
  await expect(page.getByTestId("preview-url")).toHaveText(/\/go\/[a-z0-9_-]+\/launch$/);
  await expect(page.getByTestId("preview-title")).toHaveText("Your title");
  await page.getByLabel("Title", { exact: true }).fill("Our spring launch");
  await expect(page.getByTestId("preview-title")).toHaveText("Our spring launch");
  await page.getByLabel("Description", { exact: true }).fill("Everything new this spring, in one page");
  await expect(page.getByTestId("preview-description")).toHaveText("Everything new this spring, in one page");
  // A page of another site (the fake web): a target on this server itself would be a loop, and is refused.
  const { web } = await fakes();
  await page.getByLabel("Target URL").fill(`${web}/news`);
  await page
    .getByLabel("Choose an image")
    .setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: pngBytes(240, 126) });
  await expect(page.getByTestId("preview-image")).toBeVisible();
  await page.getByRole("tab", { name: "X" }).click();
  await shot("04-editor-preview-x");
  await page.getByRole("tab", { name: "Card" }).click();
  await shot("05-editor");
  await page.getByRole("button", { name: "Create Link" }).click();

  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("toast")).toContainText("Link created successfully");
  const row = page.locator('[data-testid="link-row"][data-slug="launch"]');
  await expect(row).toContainText("Our spring launch");
  await expect(page.getByTestId("usage")).toHaveText("1 of 150 links used");
  const shortUrl = (await row.locator("p.text-indigo-700").textContent())!;
  await shot("06-dashboard");

  // A crawler fetches the card, a person clicks through.
  const crawler = await page.request.get(shortUrl, { headers: { "user-agent": "Twitterbot/1.0" } });
  expect(crawler.status()).toBe(200);
  expect(await crawler.text()).toContain('<meta property="og:title" content="Our spring launch">');
  await page.goto(shortUrl);
  await expect(page).toHaveURL(`${web}/news`);
  // Counts reach the dashboard once the writer has folded them in (a fraction of a second when traffic pauses).
  await expect(async () => {
    await page.goto("/admin");
    await expect(page.getByTestId("stat-total-views")).toHaveText("2", { timeout: 200 });
  }).toPass({ timeout: 5000 });
  await expect(page.getByTestId("stat-human-views")).toHaveText("1");
  await expect(page.getByTestId("stat-bot-views")).toHaveText("1");
  await expect(page.getByTestId("stat-total-views")).toHaveText("2");
  // From loopback, not X's network: a forged Twitterbot as far as LinkPrev can tell (docs/verification.md).
  await expect(row.getByTestId("platforms")).toHaveText("Card fetched by: X 1 (1 unverified)");
  await shot("07-views");

  // Copy.
  await hydrated(page);
  await row.getByRole("button", { name: `Copy ${shortUrl}` }).click();
  await expect(page.getByTestId("toast")).toContainText("Link copied to clipboard");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shortUrl);

  // Edit.
  await row.getByRole("link", { name: "Edit Our spring launch" }).click();
  await expect(page.getByRole("heading", { name: "Edit Link" })).toBeVisible();
  await hydrated(page);
  await expect(page.getByLabel("Title", { exact: true })).toHaveValue("Our spring launch");
  await page.getByLabel("Title", { exact: true }).fill("Our spring launch, extended");
  await shot("08-edit");
  await page.getByRole("button", { name: "Update Link" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId("toast")).toContainText("Link updated successfully");
  await expect(row).toContainText("Our spring launch, extended");

  // Delete.
  await hydrated(page);
  await row.getByRole("button", { name: "Delete Our spring launch, extended" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Link?" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("toast")).toContainText("Link deleted successfully");
  await expect(page.getByTestId("deleted-links")).toContainText("Our spring launch, extended");
  await expect(page.locator('[data-testid="link-row"]')).toHaveCount(0);
  await shot("09-deleted");
  expect((await page.request.get(shortUrl, { headers: { "user-agent": "Twitterbot/1.0" } })).status()).toBe(404);

  expect(errors).toEqual([]);
});
