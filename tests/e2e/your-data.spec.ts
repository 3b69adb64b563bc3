// Account settings: "Your data" (downloads), and the account deletion that asks for the e-mail first.
import { expect, test } from "@playwright/test";
import { hydrated, subscribedUser } from "./helpers.ts";

test("download my data, then delete the account once the e-mail is typed", async ({ page }) => {
  const who = await subscribedUser(page, "pro");
  await page.goto("/account/data");

  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download my data" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^linkprev-export-\d{4}-\d{2}-\d{2}\.json$/);
  const csv = page.waitForEvent("download");
  await page.getByRole("link", { name: "Download links (CSV)" }).click();
  expect((await csv).suggestedFilename()).toMatch(/^linkprev-links-\d{4}-\d{2}-\d{2}\.csv$/);

  await page
    .getByRole("navigation", { name: "Account settings" })
    .getByRole("link", { name: "Delete account" })
    .click();
  await hydrated(page);
  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  const confirm = dialog.getByRole("button", { name: "Delete my account" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${who.email} to confirm`).fill("someone-else@example.com");
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${who.email} to confirm`).fill(who.email.toUpperCase());
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page).toHaveURL(/\/account-deleted$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account is deleted");
  await expect(page.locator("script")).toHaveCount(0);
  expect((await page.context().cookies()).some((c) => c.name === "lp_session")).toBe(false);
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);
});
