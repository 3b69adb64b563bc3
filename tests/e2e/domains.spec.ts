// The Domains page and the editor's domain picker in a real browser.
import { expect, test } from "@playwright/test";
import { hydrated, subscribedUser } from "./helpers.ts";

test("add a domain, see the records to publish with copy buttons, check it, pick it in the editor, and remove it", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Domains" }).click();
  await expect(page).toHaveURL(/\/admin\/domains$/);
  await hydrated(page);
  await page.getByLabel("Hostname").fill("Links.E2E-Acme.test");
  await page.getByRole("button", { name: "Add domain" }).click();
  const domain = page.getByTestId("domain-links.e2e-acme.test");
  await expect(domain.getByRole("heading", { name: "links.e2e-acme.test" })).toBeVisible();
  await expect(domain.getByTestId("domain-status")).toContainText("Pending");
  await expect(domain.getByRole("cell", { name: "_linkprev.links.e2e-acme.test" })).toBeVisible();
  await expect(domain.getByRole("button", { name: "Copy TXT value" })).toBeVisible();
  await domain.getByRole("button", { name: "Check now" }).click();
  await expect(domain.getByTestId("domain-status")).toContainText("last checked");
  await expect(domain.getByTestId("domain-status")).toContainText("Pending");

  await page.goto("/admin/link/new");
  await hydrated(page);
  const picker = page.getByLabel("Domain");
  await expect(picker).toBeVisible();
  await picker.selectOption("links.e2e-acme.test");

  await page.goto("/admin/domains");
  await hydrated(page);
  await page.getByRole("button", { name: "Remove links.e2e-acme.test" }).click();
  await expect(page.getByTestId("domain-links.e2e-acme.test")).toHaveCount(0);
  await expect(page.getByText("No domains yet.")).toBeVisible();
});

test("a basic plan is told domains come with Pro and Enterprise", async ({ page }) => {
  await subscribedUser(page, "basic");
  await page.goto("/admin/domains");
  await expect(page.getByText("Custom domains are available on the Pro and Enterprise plans.")).toBeVisible();
});
