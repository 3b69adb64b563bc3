// The Domains page and the editor's domain picker in a real browser.
import { expect, test } from "@playwright/test";
import { hydrated, subscribedUser } from "./helpers.ts";

test("add a domain, see the records to publish with copy buttons, check it, pick it in the editor, and remove it", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin");
  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Domains" }).click();
  await expect(page).toHaveURL(/\/admin\/workspace\/domains\?workspace=/);
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

  await page.goto("/admin/workspace/domains");
  await hydrated(page);
  await page.getByRole("button", { name: "Remove links.e2e-acme.test" }).click();
  await expect(page.getByTestId("domain-links.e2e-acme.test")).toHaveCount(0);
  await expect(page.getByText("No domains yet.")).toBeVisible();
});

test("a basic plan is told domains come with Pro and Enterprise", async ({ page }) => {
  await subscribedUser(page, "basic");
  await page.goto("/admin/workspace/domains");
  await expect(page.getByText("Custom domains are available on the Pro and Enterprise plans.")).toBeVisible();
});

test("the page says where to point the domain; a link on a pending domain is shared and copied at its service address, and says it waits", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await subscribedUser(page, "pro");
  await page.goto("/admin/workspace/domains");
  await hydrated(page);
  // Neither DOMAIN_CNAME_TARGET nor DOMAIN_ADDRESSES is set: PUBLIC_URL (an address here) is where to point.
  const host = new URL(baseURL!).hostname;
  await expect(page.getByTestId("point-at")).toContainText(`A/AAAA records to ${host}`);
  await page.getByLabel("Hostname").fill("go.wait-e2e.test");
  await page.getByRole("button", { name: "Add domain" }).click();
  const domain = page.getByTestId("domain-go.wait-e2e.test");
  await expect(domain.getByRole("cell", { name: host, exact: true })).toBeVisible();
  // The root and not-found fields are labelled on screen, not only for screen readers.
  await expect(domain.getByText("Where go.wait-e2e.test/ goes")).toBeVisible();
  await expect(domain.getByText("Where unknown addresses go")).toBeVisible();
  await expect(domain.getByLabel("Where unknown addresses go")).toBeVisible();

  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Domain").selectOption("go.wait-e2e.test");
  await expect(page.getByTestId("domain-waiting")).toContainText("Waiting for go.wait-e2e.test to be verified");
  await expect(page.getByTestId("preview-url")).toHaveText(/\/go\/[a-z0-9_-]+\/…$/);
  await page.getByLabel("Custom URL").fill("waits");
  await page.getByLabel("Title", { exact: true }).fill("Waiting");
  await page.getByLabel("Description", { exact: true }).fill("On a domain not verified yet");
  await page.getByLabel("Target URL").fill("https://example.com/waits");
  await page.getByRole("button", { name: "Create Link" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const row = page.locator('[data-testid="link-row"][data-slug="waits"]');
  await expect(row.getByTestId("domain-waiting")).toContainText("Waiting for go.wait-e2e.test to be verified");
  const shortUrl = (await row.locator("p.text-indigo-700").textContent())!;
  expect(shortUrl).toMatch(new RegExp(`^${baseURL}/go/[a-z0-9_-]+/waits$`));
  await row.getByRole("button", { name: `Copy ${shortUrl}` }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shortUrl);
});

test("a domain's app-link documents: labelled fields, refused with the reason when malformed, kept when saved", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/workspace/domains");
  await hydrated(page);
  await page.getByLabel("Hostname").fill("app.links-e2e.test");
  await page.getByRole("button", { name: "Add domain" }).click();
  const domain = page.getByTestId("domain-app.links-e2e.test");
  // Labelled on screen with where each is served.
  await expect(
    domain.getByText(
      "Apple app-site-association (served at app.links-e2e.test/.well-known/apple-app-site-association)",
    ),
  ).toBeVisible();
  await expect(
    domain.getByText("Android asset links (served at app.links-e2e.test/.well-known/assetlinks.json)"),
  ).toBeVisible();
  const aasa = domain.getByLabel(/Apple app-site-association/);
  await aasa.fill('{"applinks": {}}');
  await domain.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByText("appleAppSiteAssociation: applinks.details must be a list (at applinks.details)"),
  ).toBeVisible();
  const text =
    '{\n  "applinks": {"details": [{"appIDs": ["ABCDE12345.com.acme.app"], "components": [{"/": "/*"}]}]}\n}';
  await aasa.fill(text);
  await domain.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved", { exact: true })).toBeVisible();
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("domain-app.links-e2e.test").getByLabel(/Apple app-site-association/)).toHaveValue(
    text,
  );
});
