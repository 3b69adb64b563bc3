// The app's screens in a real browser: validation, plans and slugs, VAT, subscription, session expiry.
import { expect, test } from "@playwright/test";
import { fakes, hydrated, pngBytes, signIn, subscribedUser, useGoogleAccount } from "./helpers.ts";

const toast = (page: import("@playwright/test").Page) => page.getByTestId("toast");

test("every link-form validation message shows at its field before any request", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  let requests = 0;
  page.on("request", (r) => r.url().includes("/api/links") && r.method() === "POST" && requests++);

  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.locator("#title-error")).toHaveText("Title is required");
  await expect(page.locator("#description-error")).toHaveText("Description is required");
  await expect(page.locator("#targetUrl-error")).toHaveText("Please enter a valid URL");

  await page.getByLabel("Title", { exact: true }).fill("x".repeat(61));
  await page.getByLabel("Description", { exact: true }).fill("y".repeat(161));
  await page.getByLabel("Target URL").fill("javascript:alert(1)");
  await page.getByLabel("Custom URL").fill("a".repeat(21));
  // Leaving the field checks it at once (and the message may move the button).
  await page.getByLabel("Custom URL").blur();
  await expect(page.locator("#customLinkSlug-error")).toHaveText("Custom URL must be 20 characters or less");
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.locator("#title-error")).toHaveText("Title must be 60 characters or less");
  await expect(page.locator("#description-error")).toHaveText("Description must be 160 characters or less");
  await expect(page.locator("#targetUrl-error")).toHaveText("Please enter a valid URL");
  await expect(page.locator("#customLinkSlug-error")).toHaveText("Custom URL must be 20 characters or less");

  await page.getByLabel("Custom URL").fill("no spaces!");
  await page.getByLabel("Custom URL").blur();
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page.locator("#customLinkSlug-error")).toHaveText(
    "Only letters, numbers, underscores and hyphens are allowed",
  );

  const big = Buffer.alloc(5 * 1024 * 1024 + 1);
  await page.getByLabel("Choose an image").setInputFiles({ name: "big.png", mimeType: "image/png", buffer: big });
  await expect(page.locator("#image-error")).toHaveText("File size must be less than 5MB");
  await page
    .getByLabel("Choose an image")
    .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(page.locator("#image-error")).toHaveText("Please select an image file");
  expect(requests).toBe(0);
});

test("basic plan: the custom URL field is disabled, with an upgrade prompt to /pricing", async ({ page }) => {
  await subscribedUser(page, "basic");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await expect(page.getByLabel("Custom URL")).toBeDisabled();
  await expect(page.getByRole("link", { name: "Upgrade" })).toHaveAttribute("href", "/pricing");
  await expect(page.getByRole("tab", { name: /AI Generate/ })).toBeDisabled();
  await expect(page.getByText("Coming Soon")).toBeVisible();
  await expect(page.getByText("Recommended size 1200x630. Formats: JPG, PNG, WebP.")).toBeVisible();
  await expect(page.getByTestId("usage")).toHaveCount(0);
  await page.goto("/admin");
  await expect(page.getByTestId("usage")).toHaveText("0 of 20 links used");
});

test("slug taken blocks submission; available is confirmed; unchanged in edit mode is not checked", async ({
  page,
}) => {
  await subscribedUser(page, "enterprise");
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: { title: "T", description: "D", targetUrl: "https://example.com/", customLinkSlug: "taken" },
  });
  expect(made.status()).toBe(201);
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Custom URL").fill("taken");
  await page.getByLabel("Title", { exact: true }).click();
  await expect(page.locator("#customLinkSlug-error")).toHaveText("This custom URL is already taken");
  await expect(page.getByRole("button", { name: "Create Link" })).toBeDisabled();
  await page.getByLabel("Custom URL").fill("free-one");
  await page.getByLabel("Title", { exact: true }).click();
  await expect(page.getByText("Custom slug available").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Create Link" })).toBeEnabled();

  await page.goto("/admin/link/edit/taken");
  await hydrated(page);
  let checks = 0;
  page.on("request", (r) => r.url().includes("check-slug-availability") && checks++);
  await page.getByLabel("Custom URL").focus();
  await page.getByLabel("Title", { exact: true }).click();
  await page.waitForTimeout(200);
  expect(checks).toBe(0);
});

test("'Link Not Found' for a slug that is not yours", async ({ page }) => {
  await subscribedUser(page, "pro");
  const response = await page.goto("/admin/link/edit/nobodys-link");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Link Not Found" })).toBeVisible();
  await expect(
    page.getByText("The link you're trying to edit doesn't exist or you don't have permission to access it."),
  ).toBeVisible();
  await expect(page.getByRole("link", { name: "← Back to dashboard" })).toHaveAttribute("href", "/admin");
});

test("cancel then reactivate the subscription", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin?tab=subscription");
  await hydrated(page);
  const card = page.getByTestId("subscription-card");
  await expect(card).toContainText("Active");
  await expect(card).toContainText("Next renewal:");
  await card.getByRole("button", { name: "Cancel subscription" }).click();
  const dialog = page.getByRole("dialog", { name: "Are you sure?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Confirm cancellation" }).click();
  await expect(toast(page)).toContainText("Subscription canceled");
  await expect(card).toContainText(/Canceled \(ends on [A-Z][a-z]+ \d{1,2}, \d{4}\)/);
  await expect(card).not.toContainText("Next renewal");
  await card.getByRole("button", { name: "Reactivate" }).click();
  await expect(toast(page)).toContainText("Subscription reactivated");
  await expect(card).toContainText("Active");
  await page.reload();
  await expect(page.getByTestId("subscription-card")).toContainText("Active");
});

test("VAT exemption: valid, invalid, same country, and VIES down", async ({ page }) => {
  const { vies } = await fakes();
  await page.goto("/pricing");
  await hydrated(page);
  const open = () => page.getByRole("button", { name: "EU business? Apply for VAT exemption" }).click();
  const dialog = page.getByRole("dialog", { name: "VAT exemption" });

  await open();
  await dialog.getByRole("button", { name: "Validate" }).click();
  await expect(toast(page)).toContainText("Please provide both country and VAT number");

  await dialog.getByLabel("Country").selectOption("PT");
  await expect(dialog.getByRole("note")).toContainText("not applicable");
  await expect(dialog.getByLabel("VAT number")).toBeDisabled();

  await dialog.getByLabel("Country").selectOption("FR");
  await dialog.getByLabel("VAT number").fill("00 000 000 000");
  await dialog.getByRole("button", { name: "Validate" }).click();
  await expect(toast(page)).toContainText("Invalid VAT number");

  await fetch(`${vies}/__test/mode`, { method: "POST", body: "down" });
  await dialog.getByRole("button", { name: "Validate" }).click();
  await expect(toast(page)).toContainText(
    "Could not validate your VAT number due to a server error. Please try again later.",
  );
  await fetch(`${vies}/__test/mode`, { method: "POST", body: "up" });

  await dialog.getByLabel("Country").selectOption("DE");
  await dialog.getByLabel("VAT number").fill("DE 123.456.789");
  await dialog.getByRole("button", { name: "Validate" }).click();
  await expect(toast(page)).toContainText("Your company has been verified for VAT exemption");
  await expect(page.getByTestId("vat")).toContainText("Beispiel GmbH");
  // Kept across pages (and the sign-in redirect) in session storage.
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("vat")).toContainText("Beispiel GmbH");
  await page.getByTestId("vat").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByRole("button", { name: "EU business? Apply for VAT exemption" })).toBeVisible();
});

test("a call answered 401 says so and goes to sign in after 500 ms", async ({ page, context }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await context.clearCookies();
  await page.getByLabel("Custom URL").fill("anything");
  await page.getByLabel("Title", { exact: true }).click();
  await expect(toast(page)).toContainText("Unauthorized");
  await expect(toast(page)).toContainText("You are logged out. Logging in again...");
  await page.waitForURL(
    (url) => url.pathname === "/pricing" || url.pathname === "/api/auth/google" || url.pathname === "/admin",
  );
});

test("the plan chosen while signed out continues to checkout after sign-in", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  await useGoogleAccount(page, {
    sub: `later-${process.pid}-${Date.now()}`,
    email: `later-${process.pid}-${Date.now()}@example.com`,
    email_verified: true,
  });
  await page.locator('[data-plan="enterprise"]').getByRole("button", { name: "Start now" }).click();
  // Google → /admin → /pricing (no subscription yet): a new user accepts the terms first, then the remembered
  // plan goes on to checkout → back here.
  const consent = page.getByRole("dialog", { name: "Before you continue" });
  await expect(consent).toBeVisible();
  await expect(page).toHaveURL(/\/pricing$/);
  await consent.getByLabel("I accept the terms and conditions").check();
  await consent.getByLabel("I accept the privacy policy").check();
  await consent.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/payment-success\?session_id=/, { timeout: 15_000 });
  await expect(page.getByTestId("plan-name")).toHaveText("Enterprise");
});

test("a new image replaces the old one in the preview", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await expect(page.getByTestId("preview-image")).toHaveCount(0);
  await page.getByLabel("Choose an image").setInputFiles({ name: "a.png", mimeType: "image/png", buffer: pngBytes() });
  await expect(page.getByTestId("preview-image")).toBeVisible();
});

test("JS budget: the largest page, /admin/link/new, loads at most 60 KB of script gzipped", async ({ page }) => {
  const { gzipSync } = await import("node:zlib");
  await subscribedUser(page, "pro");
  const scripts = new Map<string, number>();
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script")
      scripts.set(response.url(), gzipSync(await response.body()).length);
  });
  await page.goto("/admin/link/new");
  await hydrated(page);
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  console.log(`/admin/link/new JS: ${scripts.size} files, ${(total / 1024).toFixed(1)} KB gzipped`);
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(60 * 1024);
});
