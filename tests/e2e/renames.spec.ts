// A link renamed in the editor keeps answering at its old short URL (people redirected, crawlers given the card,
// the view counted to the link); the editor lists the old address with a Drop button, after which it answers 410
// and no link can take the slug. Moving a link to another domain lists its address on the old one the same way.
// docs/decisions/0047.
import { expect, test, type Page } from "@playwright/test";
import { hydrated, subscribedUser, watchConsole } from "./helpers.ts";

const CRAWLER = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";
const card = { targetUrl: "https://example.com/spring", title: "Spring sale", description: "Everything half price" };

async function createLink(page: Page, fields: Record<string, unknown>) {
  const origin = new URL(page.url()).origin;
  const created = await page.request.post("/api/links", { headers: { origin }, data: { ...card, ...fields } });
  expect(created.status()).toBe(201);
  return created.json();
}

async function saveEdit(page: Page) {
  await page.getByRole("button", { name: "Update Link" }).click();
  await page.waitForURL(/\/admin$/);
}

const go = (page: Page, path: string, userAgent?: string) =>
  page.request.get(path, { maxRedirects: 0, headers: userAgent ? { "user-agent": userAgent } : {} });

test("rename a link: its old address still answers and counts; the editor lists it and Drop makes it 410 for good", async ({
  page,
}) => {
  const errors = watchConsole(page);
  await subscribedUser(page, "pro");
  const { userSlug } = await (await page.request.get("/api/auth/user")).json();
  const link = await createLink(page, { customLinkSlug: "spring" });

  await page.goto("/admin/link/edit/spring");
  await hydrated(page);
  await expect(page.getByTestId("old-addresses")).toHaveCount(0);
  await page.getByLabel("Custom URL").fill("spring-sale");
  await saveEdit(page);

  const person = await go(page, `/go/${userSlug}/spring`);
  expect(person.status()).toBe(302);
  expect(person.headers().location).toBe(card.targetUrl);
  const crawler = await go(page, `/go/${userSlug}/spring`, CRAWLER);
  expect(crawler.status()).toBe(200);
  expect(await crawler.text()).toContain(card.title);
  await expect
    .poll(async () => (await (await page.request.get("/api/links/by-slug/spring-sale")).json()).viewsHuman)
    .toBe(1);
  expect(link.linkSlug).toBe("spring");

  await page.goto("/admin/link/edit/spring-sale");
  await hydrated(page);
  const oldAddresses = page.getByTestId("old-addresses");
  const oldUrl = new URL(`/go/${userSlug}/spring`, page.url()).href;
  await expect(oldAddresses.getByRole("heading", { name: "Earlier addresses" })).toBeVisible();
  await expect(oldAddresses.getByText(oldUrl, { exact: true })).toBeVisible();
  await oldAddresses.getByRole("button", { name: `Drop ${oldUrl}` }).click();
  const dialog = page.getByRole("dialog", { name: "Drop this address?" });
  await expect(dialog).toContainText("This cannot be undone.");
  await dialog.getByRole("button", { name: "Drop", exact: true }).click();
  await expect(page.getByText("Address dropped")).toBeVisible();
  await expect(oldAddresses).toHaveCount(0);

  expect((await go(page, `/go/${userSlug}/spring`)).status()).toBe(410);
  expect((await go(page, `/go/${userSlug}/spring`, CRAWLER)).status()).toBe(410);
  // Not reusable: the new link form says so as the slug is typed, and a save is refused.
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Custom URL").fill("spring");
  await page.getByLabel("Custom URL").blur();
  await expect(page.locator("#customLinkSlug-error")).toHaveText("This custom URL is already taken");
  const origin = new URL(page.url()).origin;
  expect(
    (
      await page.request.post("/api/links", { headers: { origin }, data: { ...card, customLinkSlug: "spring" } })
    ).status(),
  ).toBe(409);
  expect(errors.filter((e) => !e.includes("409"))).toEqual([]);
});

test("move a link to another domain: the editor lists its address on the old domain", async ({ page }) => {
  await subscribedUser(page, "enterprise");
  const origin = new URL(page.url()).origin;
  for (const hostname of ["old.renames-e2e.test", "new.renames-e2e.test"]) {
    expect((await page.request.post("/api/domains", { headers: { origin }, data: { hostname } })).status()).toBe(201);
  }
  await createLink(page, { customLinkSlug: "menu", domain: "old.renames-e2e.test" });

  await page.goto("/admin/link/edit/menu");
  await hydrated(page);
  await page.getByLabel("Domain").selectOption("new.renames-e2e.test");
  await saveEdit(page);

  await page.goto("/admin/link/edit/menu");
  await hydrated(page);
  const oldAddresses = page.getByTestId("old-addresses");
  await expect(oldAddresses.getByText(/^https?:\/\/old\.renames-e2e\.test\/menu$/)).toBeVisible();
  // Neither domain is verified here (no DNS): the link shares its service address until the new one is.
  await expect(page.getByTestId("domain-waiting")).toContainText("Waiting for new.renames-e2e.test to be verified");
});

test("the editor's slug check calls the link's own earlier slug free, as saving does, and another link's taken", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  await createLink(page, { customLinkSlug: "autumn" });
  await createLink(page, { customLinkSlug: "autumn-other" });
  const origin = new URL(page.url()).origin;
  expect(
    (
      await page.request.put("/api/links/by-slug/autumn", {
        headers: { origin },
        data: { ...card, customLinkSlug: "autumn-sale" },
      })
    ).status(),
  ).toBe(200);

  await page.goto("/admin/link/edit/autumn-other");
  await hydrated(page);
  await page.getByLabel("Custom URL").fill("autumn");
  await page.getByLabel("Title", { exact: true }).click();
  await expect(page.locator("#customLinkSlug-error")).toHaveText("This custom URL is already taken");

  await page.goto("/admin/link/edit/autumn-sale");
  await hydrated(page);
  await page.getByLabel("Custom URL").fill("autumn");
  await page.getByLabel("Title", { exact: true }).click();
  await expect(page.getByText("Custom slug available").first()).toBeVisible();
  await expect(page.locator("#customLinkSlug-error")).toHaveCount(0);
  await saveEdit(page);
  expect((await (await page.request.get("/api/links/by-slug/autumn")).json()).title).toBe(card.title);
});
