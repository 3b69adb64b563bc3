// Link rules in the editor: the UTM builder writes a preset's tags into the target URL (its parameters kept), the
// rules are checked at their fields with the server's messages, and what is saved shows as badges on the dashboard.
import { expect, test } from "@playwright/test";
import { hydrated, subscribedUser } from "./helpers.ts";

test("UTM builder, a visit cap, a password and a device rule: saved, shown on the dashboard, and kept by the edit page", async ({ page }) => {
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
  await expect(page.getByLabel("Target URL")).toHaveValue("https://example.com/app?ref=home&utm_source=linkedin&utm_medium=social&utm_campaign=spring+launch");

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
  await expect(badges).toContainText("At most 100 visits");
  await expect(badges).toContainText("Password");
  await expect(badges).toContainText("1 target rule");

  await page.getByRole("link", { name: "Edit App launch" }).click();
  await hydrated(page);
  await expect(page.getByLabel("Maximum visits")).toHaveValue("100");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("placeholder", "Unchanged");
  await expect(page.getByLabel("Rule target URL")).toHaveValue("https://apps.apple.com/app/id1");
});
