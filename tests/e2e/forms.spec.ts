// Every form the product has, submitted from Chromium as a person would, each reaching its success state: the
// inspect page's report (which posts with Origin: null, its page being no-referrer), a link's password, the
// sign-out question, the one-time sign-in link, consent, VAT, the link editor, domains, webhooks, API tokens and
// the account's deletion. Fields are found by their labels and roles, so that a restyled screen still passes.
import { expect, test, type Page } from "@playwright/test";
import { fakes, hydrated, signIn, signInOnBare, subscribedUser } from "./helpers.ts";

const signedIn = async (page: Page) => (await page.context().cookies()).some((cookie) => cookie.name === "lp_session");

/** A link made through the API by the signed-in user; its JSON. */
async function makeLink(page: Page, fields: Record<string, unknown> = {}) {
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: {
      title: "Spring sale",
      description: "Everything half price",
      targetUrl: "https://shop.example/sale",
      ...fields,
    },
  });
  expect(made.status()).toBe(201);
  return (await made.json()) as { shortUrl: string; title: string };
}

for (const width of [1280, 390]) {
  test(`report: the inspect page's form, sent from Chromium at ${width} px, thanks the reporter`, async ({ page }) => {
    await page.setViewportSize({ width, height: 844 });
    await subscribedUser(page, "basic");
    const link = await makeLink(page);
    await page.goto(`${link.shortUrl}+`);
    await page.getByLabel("Reason").selectOption({ index: 1 });
    await page.getByLabel("Details (optional)").fill("It asks for my bank password.");
    await page.getByRole("button", { name: "Report this link" }).click();
    await expect(page.getByRole("status")).toHaveText("Thank you: your report was sent to the operators.");
  });
}

test("a report form on another site is refused with a page saying so, not JSON", async ({ page, baseURL }) => {
  await page.route("https://elsewhere.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Elsewhere</title><form method="post" action="${baseURL}/api/reports"><input name="address" value="x/y"><input name="reason" value="spam"><button>Send</button></form>`,
    }),
  );
  await page.goto("https://elsewhere.example/");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("main")).toContainText("Cross-site request refused");
  await expect(page.getByRole("link", { name: "Back to the home page" })).toBeVisible();
});

test("a link's password: a wrong one is said so, the right one goes on to the destination", async ({ page }) => {
  await page.route("https://destination.example/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Welcome</title><h1>Welcome aboard</h1>" }),
  );
  await subscribedUser(page, "pro");
  const link = await makeLink(page, { targetUrl: "https://destination.example/welcome", password: "open sesame" });
  await page.goto(link.shortUrl);
  await page.getByLabel("Password").fill("guess");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert")).toHaveText("That password is not right.");
  await page.getByLabel("Password").fill("open sesame");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Welcome aboard" })).toBeVisible();
});

test("the sign-out question: its button signs out", async ({ page, baseURL }) => {
  await subscribedUser(page, "basic");
  await page.route("https://elsewhere.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Elsewhere</title><a href="${baseURL}/api/auth/logout">Leave</a>`,
    }),
  );
  await page.goto("https://elsewhere.example/");
  await page.getByRole("link", { name: "Leave" }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  expect(await signedIn(page)).toBe(false);
});

test("the one-time sign-in link's form signs in", async ({ page }) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare);
  expect(await signedIn(page)).toBe(true);
  await page.goto(`${bare}/admin`);
  await expect(page).toHaveURL(`${bare}/admin`);
});

test("consent: both boxes and Continue record it", async ({ page }) => {
  await signIn(page);
  await page.goto("/pricing");
  const dialog = page.getByRole("dialog", { name: "Before you continue" });
  await dialog.getByLabel("I accept the terms and conditions").check();
  await dialog.getByLabel("I accept the privacy policy").check();
  await dialog.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByText("Your consent has been recorded successfully.")).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test("VAT exemption: a valid number is verified", async ({ page }) => {
  await page.goto("/pricing");
  await hydrated(page);
  await page.getByRole("button", { name: "EU business? Apply for VAT exemption" }).click();
  const dialog = page.getByRole("dialog", { name: "VAT exemption" });
  await dialog.getByLabel("Country").selectOption("DE");
  await dialog.getByLabel("VAT number").fill("DE 123.456.789");
  await dialog.getByRole("button", { name: "Validate" }).click();
  await expect(page.getByText("Your company has been verified for VAT exemption")).toBeVisible();
});

test("the link editor: create, then update", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Title", { exact: true }).fill("Autumn menu");
  await page.getByLabel("Description", { exact: true }).fill("Soups and stews");
  await page.getByLabel("Target URL").fill("https://restaurant.example/autumn");
  await page.getByRole("button", { name: "Create Link" }).click();
  await page.waitForURL(/\/admin$/);
  await expect(page.getByText("Link created successfully")).toBeVisible();

  // To its edit page by address: the dashboard's rows are not this test's subject.
  const links = (await (await page.request.get("/api/links")).json()) as Array<{ title: string; linkSlug: string }>;
  await page.goto(`/admin/link/edit/${links.find((link) => link.title === "Autumn menu")!.linkSlug}`);
  await hydrated(page);
  await page.getByLabel("Title", { exact: true }).fill("Autumn menu, new dishes");
  await page.getByRole("button", { name: "Update Link" }).click();
  await page.waitForURL(/\/admin$/);
  await expect(page.getByText("Link updated successfully")).toBeVisible();
});

test("domains: a hostname added is listed", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/workspace/domains");
  await hydrated(page);
  const hostname = `links.forms-${Date.now()}.test`;
  await page
    .getByRole("textbox", { name: /hostname|domain/i })
    .first()
    .fill(hostname);
  await page.getByRole("button", { name: /add.*domain/i }).click();
  await expect(page.getByText(hostname, { exact: true }).first()).toBeVisible();
});

test("webhooks: an endpoint added shows its secret once", async ({ page }) => {
  const { web } = await fakes();
  await subscribedUser(page, "pro");
  await page.goto("/admin/workspace/webhooks");
  await hydrated(page);
  await page.getByRole("textbox", { name: /URL/ }).first().fill(`${web}/forms-hook`);
  await page.getByRole("button", { name: /add.*endpoint/i }).click();
  await expect(page.getByText(/whsec_/).first()).toBeVisible();
  await expect(page.getByText(`${web}/forms-hook`).first()).toBeVisible();
});

test("API tokens: a named token is created and shown once", async ({ page }) => {
  await subscribedUser(page, "basic");
  await page.goto("/admin/workspace/tokens");
  await hydrated(page);
  await page.getByLabel("Token name").fill("laptop");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText(/^lp_/).first()).toBeVisible();
});

test("account deletion: typing the e-mail and confirming signs out for good", async ({ page }) => {
  const who = await subscribedUser(page, "basic");
  await page.goto("/account/delete");
  await hydrated(page);
  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await dialog.getByLabel(`Type ${who.email} to confirm`).fill(who.email);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect.poll(() => signedIn(page)).toBe(false);
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);
});
