// Workspace settings → General and Audit log in Chromium (docs/workspaces.md, "Where things are"): an owner renames
// a team and sees the new name in the top bar's switcher, reads that rename in the audit log, then deletes the team
// by typing its slug and lands on their personal workspace's dashboard. On the bare instance (no billing).
import { expect, test } from "@playwright/test";
import { fakes, hydrated, signInOnBare } from "./helpers.ts";

test("an owner renames a team, reads the rename in the audit log and deletes the team by typing its slug", async ({
  page,
}) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare);
  const slug = `g${Date.now().toString(36)}`;
  const made = await page.request.post(`${bare}/api/workspaces`, {
    headers: { origin: bare },
    data: { slug, name: "Before rename" },
  });
  expect(made.status()).toBe(201);

  await page.goto(`${bare}/admin/workspace?workspace=${slug}`);
  await hydrated(page);
  await expect(page.getByRole("link", { name: "Export workspace" })).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("After rename");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Workspace settings: After rename");
  await expect(page.getByRole("button", { name: "Workspace: After rename" })).toBeVisible();
  await expect(page.getByText("Workspace renamed")).toBeVisible();

  await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Audit log" }).click();
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.nth(1)).toContainText("workspace.update");
  await expect(rows.nth(1)).toContainText("name");
  await expect(page.getByRole("link", { name: "Download CSV" })).toHaveAttribute("href", /\/audit\.csv$/);

  await page.goto(`${bare}/admin/workspace?workspace=${slug}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Delete workspace" }).click();
  const confirm = page.getByRole("button", { name: "Delete this workspace" });
  await expect(confirm).toBeDisabled();
  await page.getByLabel(`Type ${slug} to confirm`).fill(slug);
  await confirm.click();
  await expect(page).toHaveURL(/\/admin\?workspace=/);
  await expect(page.getByText(`Workspace ${slug} deleted`)).toBeVisible();
  await expect(page.getByRole("button", { name: /^Workspace: / })).not.toContainText("After rename");
  expect((await page.request.get(`${bare}/go/${slug}/anything`)).status()).toBe(410);
});

test("a personal workspace has no delete form: its account's deletion removes it", async ({ page }) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare);
  await page.goto(`${bare}/admin/workspace`);
  await hydrated(page);
  await expect(page.getByRole("button", { name: "Delete workspace" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "delete your account" })).toHaveAttribute("href", "/account/delete");
});
