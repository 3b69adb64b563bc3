// Workspace settings in Chromium (docs/workspaces.md, "Where things are"): an owner invites from the members screen
// and sees the pending invite, changes a member's role, and that member, now a viewer, sees the settings without a
// form. Each page is opened with `?workspace=`, as a link to a team's settings is. On the bare instance (no billing).
import { expect, test, type Page } from "@playwright/test";
import { fakes, hydrated, signInOnBare } from "./helpers.ts";

/** A team workspace made by whoever `page` is signed in as. */
async function teamOf(page: Page, bare: string) {
  const slug = `s${Date.now().toString(36)}`;
  const made = await page.request.post(`${bare}/api/workspaces`, {
    headers: { origin: bare },
    data: { slug, name: "Settings team" },
  });
  expect(made.status()).toBe(201);
  return (await made.json()) as { id: number; slug: string };
}

test("an owner invites from the members screen, changes a role; a viewer sees the settings without forms", async ({
  page,
  browser,
}) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare);
  const team = await teamOf(page, bare);

  await page.goto(`${bare}/admin/workspace/members?workspace=${team.slug}`);
  await hydrated(page);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Workspace settings: Settings team");
  await expect(
    page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Members and invites" }),
  ).toHaveAttribute("aria-current", "page");
  await page.getByLabel("E-mail address").fill("bea@example.com");
  await page.getByLabel("Role", { exact: true }).selectOption("billing");
  await page.getByRole("button", { name: "Send invite" }).click();
  await expect(page.getByTestId("invite-url")).toContainText("/invites/");
  const pending = page.getByRole("list", { name: "Pending invites" });
  await expect(pending).toContainText("bea@example.com");
  await expect(pending).toContainText("billing");
  await page.reload();
  await expect(page.getByRole("list", { name: "Pending invites" })).toContainText("bea@example.com");

  // A second person joins as a member, through an invite made for their address.
  const other = await (await browser.newContext()).newPage();
  await signInOnBare(other, bare);
  const { email } = (await (await other.request.get(`${bare}/api/auth/user`)).json()) as { email: string };
  const invite = await page.request.post(`${bare}/api/workspaces/${team.id}/invites`, {
    headers: { origin: bare },
    data: { email, role: "member" },
  });
  const token = ((await invite.json()) as { url: string }).url.split("/invites/")[1]!;
  expect((await other.request.post(`${bare}/api/invites/${token}/accept`, { headers: { origin: bare } })).ok()).toBe(
    true,
  );

  await page.reload();
  await hydrated(page);
  const role = page.getByLabel(`Role of ${email}`);
  await expect(role).toHaveValue("member");
  await role.selectOption("viewer");
  await expect(page.getByText(`${email} is now viewer`)).toBeVisible();
  await page.reload();
  await expect(page.getByLabel(`Role of ${email}`)).toHaveValue("viewer");

  // The viewer opens the team's settings in a tab of their own (their cookie still names their personal workspace).
  for (const section of ["", "/members", "/tokens", "/domains", "/webhooks", "/billing", "/audit"]) {
    await other.goto(`${bare}/admin/workspace${section}?workspace=${team.slug}`);
    await expect(other.getByRole("heading", { level: 1 })).toHaveText("Workspace settings: Settings team");
    await expect(other.getByRole("main").locator("form, select, input, textarea")).toHaveCount(0);
  }
  await other.goto(`${bare}/admin/workspace/members?workspace=${team.slug}`);
  await expect(other.getByRole("list", { name: "Members" })).toContainText(`${email}viewer`);
  await expect(other.getByRole("main")).not.toContainText("bea@example.com");
  await other.goto(`${bare}/admin/workspace/audit?workspace=${team.slug}`);
  await expect(other.getByRole("main")).toContainText("Your role in this workspace does not show this section.");
  await expect(other.getByRole("table")).toHaveCount(0);
});

test("the old places of domains and webhooks lead to workspace settings; account settings have their own", async ({
  page,
}) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare);
  const team = await teamOf(page, bare);
  await page.goto(`${bare}/admin/webhooks?workspace=${team.slug}`);
  await expect(page).toHaveURL(`${bare}/admin/workspace/webhooks?workspace=${team.slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Workspace settings: Settings team");
  await page.goto(`${bare}/admin/domains`);
  await expect(page).toHaveURL(`${bare}/admin/workspace/domains`);

  await page.goto(`${bare}/admin?tab=subscription`);
  await page.getByRole("link", { name: "account settings" }).click();
  const account = page.getByRole("navigation", { name: "Account settings" });
  await account.getByRole("link", { name: "Your data" }).click();
  await expect(page.getByRole("link", { name: "Download my data" })).toBeVisible();
  await account.getByRole("link", { name: "Delete account" }).click();
  await expect(page.getByRole("button", { name: "Delete account" })).toBeVisible();
});
