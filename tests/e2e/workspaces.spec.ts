// The top bar's workspace switcher (docs/workspaces.md), in Chromium: create a team workspace from it, land on its
// (empty) dashboard with its name in the top bar, a link made there is served at /go/{team}/…, and switching back
// shows the personal workspace's dashboard again. On the bare instance (no billing: every workspace may make links).
import { expect, test } from "@playwright/test";
import { fakes, hydrated, signInOnBare } from "./helpers.ts";

test("create a workspace from the switcher, act in it, switch back", async ({ page }) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare);
  await page.goto(`${bare}/admin`);
  await hydrated(page);
  const switcher = page.getByRole("button", { name: /^Workspace:/ });
  await expect(switcher).toHaveText(/Personal/);

  await switcher.click();
  await page.getByRole("button", { name: "New workspace…" }).click();
  const slug = `t${Date.now().toString(36)}`;
  await page.getByLabel("Workspace name").fill("Launch team");
  await page.getByLabel("Address (/go/address/…)").fill(slug);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.waitForURL(`${bare}/admin`);
  await hydrated(page);
  await expect(page.getByRole("button", { name: /^Workspace:/ })).toHaveText(/Launch team/);

  // A link made now belongs to the team: its short URL names the team's slug.
  const origin = new URL(page.url()).origin;
  const made = await page.request.post(`${bare}/api/links`, {
    headers: { origin },
    data: { targetUrl: "https://example.com/team", title: "Team link", description: "d", customLinkSlug: "hello" },
  });
  expect(made.status()).toBe(201);
  expect((await made.json()).shortUrl).toBe(`${bare}/go/${slug}/hello`);
  await page.reload();
  await expect(page.getByText("Team link", { exact: true })).toBeVisible();

  // The same slug is refused to anyone else, the switcher says why.
  await page.getByRole("button", { name: /^Workspace:/ }).click();
  await page.getByRole("button", { name: "New workspace…" }).click();
  await page.getByLabel("Workspace name").fill("Copycat");
  await page.getByLabel("Address (/go/address/…)").fill(slug);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await expect(page.getByRole("alert")).toHaveText("This workspace address is already taken");

  await page
    .getByRole("list", { name: "Workspaces" })
    .getByRole("button", { name: /Personal/ })
    .click();
  await page.waitForURL(`${bare}/admin`);
  await hydrated(page);
  await expect(page.getByRole("button", { name: /^Workspace:/ })).toHaveText(/Personal/);
  await expect(page.getByText("Team link", { exact: true })).toHaveCount(0);
});
