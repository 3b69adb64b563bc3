// Accessibility checked by a machine: axe-core (WCAG 2.0/2.1 A and AA, 2.2 AA) over every page and every open
// dialog, menu and toast, signed out and signed in, on a wide screen and a phone. Any serious or critical
// violation fails the test, and every one found is printed: which page or state, the rule, and the elements.
import { expect, test, type Browser, type Cookie, type Page } from "@playwright/test";
import { MOCKUP_PLATFORMS, PLATFORMS } from "../../src/previews/platforms.ts";
import { axeOf, fakes, hydrated, pngBytes, raiseToast, signIn, subscribedUser } from "./helpers.ts";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const FAILING_IMPACTS = new Set(["serious", "critical"]);
const PUBLIC_PAGES = ["/", "/pricing", "/about", "/privacy", "/terms", "/contact"];
const VIEWPORTS = [
  { name: "wide", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];

/** Runs axe over the page as it is now; returns the serious and critical violations (`impacts`), readably, under `where`. */
async function audit(page: Page, where: string, impacts = FAILING_IMPACTS): Promise<string[]> {
  // Plus label-in-name (WCAG 2.5.3), which axe still marks experimental and so leaves out of its tags.
  const { violations } = await axeOf(page)
    .options({ runOnly: { type: "tag", values: TAGS }, rules: { "label-content-name-mismatch": { enabled: true } } })
    .analyze();
  return violations
    .filter((v) => impacts.has(v.impact ?? ""))
    .map((v) => {
      const nodes = v.nodes
        .map(
          (n) =>
            `      ${n.target.join(" ")}  ${n.html.slice(0, 160)}\n        ${n.failureSummary?.replace(/\n/g, "\n        ") ?? ""}`,
        )
        .join("\n");
      return `${where} [${page.viewportSize()?.width}px]: ${v.impact} ${v.id}: ${v.help} (${v.helpUrl})\n${nodes}`;
    });
}

/** Fails with every finding listed, one block each, so that one run shows them all. */
function expectNone(findings: string[]) {
  expect(findings, `\n${findings.join("\n\n")}\n`).toEqual([]);
}

/** A page loaded and hydrated, then audited. */
async function auditPage(page: Page, path: string, where = path): Promise<string[]> {
  await page.goto(path);
  await hydrated(page);
  return audit(page, where);
}

/** The phone layout folds the main navigation into a disclosure: audit it open too. */
async function auditOpenNavigation(page: Page, where: string): Promise<string[]> {
  const summary = page.getByRole("banner").locator("summary", { hasText: "Menu" });
  if (!(await summary.isVisible())) return [];
  await summary.click();
  await expect(page.getByRole("banner").getByRole("link", { name: "Pricing" })).toBeVisible();
  const findings = await audit(page, `${where}, navigation menu open`);
  await summary.click();
  return findings;
}

async function auditToasts(page: Page, where: string): Promise<string[]> {
  await raiseToast(page, "Saved", "Everything went well");
  await expect(page.getByTestId("toast")).toBeVisible();
  const findings = await audit(page, `${where}, a toast`);
  await page.evaluate(() => {
    (window as unknown as { __linkprevToasts?: unknown[] }).__linkprevToasts = [
      { title: "Error", description: "Something failed", variant: "destructive" },
    ];
    window.dispatchEvent(new CustomEvent("linkprev:toast"));
  });
  await expect(page.getByRole("alert").filter({ hasText: "Something failed" })).toBeVisible();
  findings.push(...(await audit(page, `${where}, a destructive toast`)));
  await page.getByRole("button", { name: "Dismiss notification" }).click();
  return findings;
}

async function auditVatDialog(page: Page, where: string): Promise<string[]> {
  await page.getByRole("button", { name: "EU business? Apply for VAT exemption" }).click();
  const dialog = page.getByRole("dialog", { name: "VAT exemption" });
  await expect(dialog).toBeVisible();
  const findings = await audit(page, `${where}, VAT exemption dialog`);
  // The same-country note and the disabled number field.
  await dialog.getByLabel("Country").selectOption("PT");
  await expect(dialog.getByRole("note")).toBeVisible();
  findings.push(...(await audit(page, `${where}, VAT exemption dialog, same country`)));
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  return findings;
}

/** Signs a new user up through the real flows: subscribed to Pro, with a live link ('spring', with its chart), a
 *  deleted one, and an API token. Returns the session cookies, for every test of a group to share. */
async function subscribedWithLinks(browser: Browser): Promise<Cookie[]> {
  const { baseURL, userAgent } = test.info().project.use;
  const context = await browser.newContext({ baseURL, userAgent });
  const page = await context.newPage();
  await subscribedUser(page, "pro", { given_name: "Joana", family_name: "Pereira" });
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: {
      title: "Spring launch",
      description: "All that is new",
      targetUrl: "https://example.com/",
      customLinkSlug: "spring",
    },
  });
  expect(made.status()).toBe(201);
  const gone = await page.request.post("/api/links", {
    headers: { origin },
    data: {
      title: "Old campaign",
      description: "Retired",
      targetUrl: "https://example.com/old",
      customLinkSlug: "old",
    },
  });
  expect(gone.status()).toBe(201);
  expect((await page.request.delete(`/api/links/${(await gone.json()).id}`, { headers: { origin } })).ok()).toBe(true);
  expect((await page.request.post("/api/tokens", { headers: { origin }, data: { name: "laptop" } })).ok()).toBe(true);
  // Two webhook endpoints, one of them paused: the page lists both states.
  const { web } = await fakes();
  for (const path of ["/a11y-hook", "/a11y-paused-hook"]) {
    const hook = await page.request.post("/api/webhooks", {
      headers: { origin },
      data: { url: `${web}${path}`, events: ["link.created"], description: "Team chat" },
    });
    expect(hook.status()).toBe(201);
    if (path === "/a11y-paused-hook")
      expect(
        (
          await page.request.patch(`/api/webhooks/${(await hook.json()).id}`, {
            headers: { origin },
            data: { paused: true },
          })
        ).ok(),
      ).toBe(true);
  }
  const cookies = await context.cookies();
  await context.close();
  return cookies;
}

const SIGNED_OUT_PAGES: Array<[path: string, where: string]> = [
  ...PUBLIC_PAGES.map((path): [string, string] => [path, path]),
  // The screens of signing in that are not Google's own, and the 404 page.
  ["/login/some-sign-in-link-token", "sign-in link page"],
  ["/api/auth/google/callback?code=x&state=y", "sign-in failed page"],
  ["/no-such-page", "404 page"],
  ["/docs/api", "API reference"],
  ["/docs/api/links", "API reference: Links (the largest tag)"],
  ["/docs/api/schemas", "API reference: Schemas"],
  // A guard's redirect, with its flash toast on arrival.
  ["/admin", "/admin signed out: / with a flash toast"],
];

const SUBSCRIBED_PAGES: Array<[path: string, where: string]> = [
  ...PUBLIC_PAGES.map((path): [string, string] => [path, path]),
  ["/no-such-page", "404 page"],
  ["/admin", "dashboard, links tab (a link with its thumbnail and summary, a deleted link)"],
  ["/admin?tab=subscription", "dashboard, subscription tab (the card)"],
  ["/admin/link/new", "link editor, new"],
  ["/admin/workspace", "workspace settings, general"],
  ["/admin/workspace/members", "workspace settings, members and invites"],
  ["/admin/workspace/tokens", "workspace settings, API tokens"],
  ["/admin/workspace/domains", "workspace settings, domains"],
  ["/admin/workspace/webhooks", "workspace settings, webhooks (an endpoint, a paused one)"],
  ["/admin/workspace/billing", "workspace settings, billing"],
  ["/admin/workspace/audit", "workspace settings, audit log"],
  ["/account", "account settings, profile"],
  ["/account/data", "account settings, your data"],
  ["/account/delete", "account settings, delete account"],
  ["/admin/link/edit/spring", "link editor, edit"],
  ["/admin/link/edit/nobodys-link", "link not found page"],
  ["/admin?q=spring&sort=views", "dashboard, a search sorted by views"],
  ["/admin/link/stats/spring", "link statistics (charts, tables)"],
  ["/admin/link/stats/spring?range=all", "link statistics, all time"],
];

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test.describe("signed out", () => {
      for (const [path, where] of SIGNED_OUT_PAGES) {
        test(`page: ${where}`, async ({ page }) => {
          expectNone(await auditPage(page, path, where));
        });
      }

      test("the navigation menu and toasts", async ({ page }) => {
        await page.goto("/pricing");
        await hydrated(page);
        const findings = await auditOpenNavigation(page, "/pricing");
        findings.push(...(await auditToasts(page, "/pricing")));
        expectNone(findings);
      });

      test("the VAT exemption dialog", async ({ page }) => {
        await page.goto("/pricing");
        await hydrated(page);
        expectNone(await auditVatDialog(page, "/pricing"));
      });
    });

    test("keyboard: the skip link shows when focused and leads to the content; focus is visible", async ({ page }) => {
      await page.goto("/pricing");
      await hydrated(page);
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: "Skip to content" });
      await expect(skip).toBeFocused();
      const box = (await skip.boundingBox())!;
      expect(box.width).toBeGreaterThan(1);
      expect(box.y).toBeGreaterThanOrEqual(0);
      await page.keyboard.press("Enter");
      await expect(page).toHaveURL(/#main$/);
      // The next Tab goes on from the content, not from the top bar.
      await page.keyboard.press("Tab");
      const focusedInMain = await page.evaluate(() =>
        document.getElementById("main")!.contains(document.activeElement),
      );
      expect(focusedInMain).toBe(true);
      // A focused control carries a visible outline.
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
      expect(outline).not.toBe("none");
    });

    test("signed in: the consent dialog and the avatar menu", async ({ page }) => {
      await signIn(page, { given_name: "Marta", family_name: "Costa" });
      // A new account is asked for consent first, over whichever page it lands on.
      const findings = await auditPage(page, "/about", "/about, consent dialog");
      const consent = page.getByRole("dialog", { name: "Before you continue" });
      await expect(consent).toBeVisible();
      await consent.getByLabel("I accept the terms and conditions").check();
      await consent.getByLabel("I accept the privacy policy").check();
      await consent.getByRole("button", { name: "Continue" }).click();
      await expect(consent).toBeHidden();
      findings.push(...(await audit(page, "/about, consent given (toast)")));

      await page.getByRole("button", { name: "MC, account menu for Marta Costa", exact: true }).click();
      await expect(page.getByRole("menu", { name: "Account" })).toBeVisible();
      findings.push(...(await audit(page, "/about, avatar menu open")));
      expectNone(findings);
    });

    test.describe("subscribed", () => {
      let cookies: Cookie[] = [];
      test.beforeAll(async ({ browser }) => {
        cookies = await subscribedWithLinks(browser);
      });
      test.beforeEach(async ({ context }) => {
        await context.addCookies(cookies);
      });

      for (const [path, where] of SUBSCRIBED_PAGES) {
        test(`page: ${where}`, async ({ page }) => {
          expectNone(await auditPage(page, path, where));
        });
      }

      test("payment success", async ({ page }) => {
        await page.goto("/payment-success");
        await expect(page.getByTestId("plan-name")).toHaveText("Pro");
        expectNone(await audit(page, "/payment-success"));
      });

      test("the navigation menu and the avatar menu", async ({ page }) => {
        await page.goto("/admin");
        await hydrated(page);
        const findings = await auditOpenNavigation(page, "/admin");
        await page.getByRole("button", { name: "JP, account menu for Joana Pereira", exact: true }).click();
        await expect(page.getByRole("menu", { name: "Account" })).toBeVisible();
        findings.push(...(await audit(page, "/admin, avatar menu open (subscribed)")));
        expectNone(findings);
      });

      test("the delete confirmation, and its keyboard use: focus moves in, stays in, and comes back", async ({
        page,
      }) => {
        await page.goto("/admin");
        await hydrated(page);
        const opener = page.getByRole("button", { name: "Delete Spring launch" });
        await opener.focus();
        await page.keyboard.press("Enter");
        const confirm = page.getByRole("dialog", { name: "Delete Link?" });
        await expect(confirm).toBeVisible();
        const findings = await audit(page, "/admin, delete confirmation");
        const cancel = confirm.getByRole("button", { name: "Cancel" });
        await expect(cancel).toBeFocused();
        await page.keyboard.press("Tab");
        await expect(confirm.getByRole("button", { name: "Delete" })).toBeFocused();
        await page.keyboard.press("Tab");
        await expect(cancel).toBeFocused();
        await page.keyboard.press("Shift+Tab");
        await expect(confirm.getByRole("button", { name: "Delete" })).toBeFocused();
        await page.keyboard.press("Escape");
        await expect(confirm).toBeHidden();
        await expect(opener).toBeFocused();
        expectNone(findings);
      });

      test("the QR code dialog", async ({ page }) => {
        await page.goto("/admin");
        await hydrated(page);
        await page.getByRole("button", { name: "QR code for Spring launch" }).click();
        const dialog = page.getByRole("dialog", { name: "QR code" });
        await expect(dialog.getByRole("img", { name: "QR code for Spring launch" })).toBeVisible();
        const findings = await audit(page, "/admin, QR code dialog");
        await page.keyboard.press("Escape");
        await expect(dialog).toBeHidden();
        expectNone(findings);
      });

      test("a new API token, and the cancel-subscription confirmation", async ({ page }) => {
        await page.goto("/admin/workspace/tokens");
        await hydrated(page);
        await page.getByLabel("Token name").fill(`phone ${viewport.width}`);
        await page.getByRole("button", { name: "Create token" }).click();
        await expect(page.getByTestId("new-token")).toBeVisible();
        const findings = await audit(page, "/admin/workspace/tokens, new API token shown once");
        await page.goto("/admin?tab=subscription");
        await hydrated(page);
        await page.getByRole("button", { name: "Cancel subscription" }).click();
        const areYouSure = page.getByRole("dialog", { name: "Are you sure?" });
        await expect(areYouSure).toBeVisible();
        findings.push(...(await audit(page, "/admin?tab=subscription, cancel confirmation")));
        await areYouSure.getByRole("button", { name: "Cancel", exact: true }).click();
        await expect(areYouSure).toBeHidden();
        expectNone(findings);
      });

      test("the link editor's previews, live lint and validation messages", async ({ page }) => {
        await page.goto("/admin/link/new");
        await hydrated(page);
        const findings: string[] = [];
        // Live lint warnings beside the fields and the mockups (a title X cuts, a small image).
        await page.getByLabel("Title", { exact: true }).fill("A title long enough to be cut on X when laid over");
        await page
          .getByLabel("Choose an image")
          .setInputFiles({ name: "small.png", mimeType: "image/png", buffer: pngBytes() });
        await expect(page.locator("#image-lint")).toBeVisible();
        // The card as each platform draws it (the plain card is the page's own audit).
        for (const id of MOCKUP_PLATFORMS) {
          const tab = page.getByRole("tab", { name: PLATFORMS[id].name });
          await tab.click();
          await expect(tab).toHaveAttribute("aria-selected", "true");
          findings.push(...(await audit(page, `/admin/link/new, ${PLATFORMS[id].name} preview with lint`)));
        }
        await page.getByRole("button", { name: "Create Link" }).click();
        await expect(page.locator("#description-error")).toBeVisible();
        findings.push(...(await audit(page, "/admin/link/new, validation messages")));
        expectNone(findings);
      });

      test("the link editor's auto-fill, image suggestion, focal point picker and per-platform text", async ({
        page,
      }) => {
        const { web } = await fakes();
        await page.goto("/admin/link/new");
        await hydrated(page);
        const findings: string[] = [];
        await page.getByLabel("Target URL").fill(`${web}/news`);
        await page.getByRole("button", { name: "Fill from page" }).click();
        await expect(page.getByTestId("image-suggestion")).toBeVisible();
        findings.push(...(await audit(page, "/admin/link/new, auto-filled with an image offered")));
        await page.getByLabel("Target URL").fill(`${web}/json`);
        await page.getByRole("button", { name: "Fill from page" }).click();
        await expect(page.getByTestId("autofill-note")).toContainText("Could not fill from the page");
        findings.push(...(await audit(page, "/admin/link/new, auto-fill refused")));
        await page
          .getByLabel("Choose an image")
          .setInputFiles({ name: "wide.png", mimeType: "image/png", buffer: pngBytes(1200, 630) });
        await expect(page.getByRole("slider", { name: "Focal point" })).toBeVisible();
        await page.getByText("Per-platform text").click();
        await page.getByLabel("Title on X").fill("x".repeat(60));
        await expect(page.locator("#xTitle-error")).toBeVisible();
        await page.getByLabel("Description on WhatsApp").fill("A short description for WhatsApp");
        findings.push(...(await audit(page, "/admin/link/new, focal point picker and per-platform text")));
        expectNone(findings);
      });

      test("the webhooks page, with no violation of any impact: a new endpoint's secret, its deliveries, its events being changed", async ({
        page,
      }) => {
        const everyImpact = new Set(["minor", "moderate", "serious", "critical"]);
        const { web } = await fakes();
        await page.goto("/admin/workspace/webhooks");
        await hydrated(page);
        const findings = await audit(page, "/admin/workspace/webhooks", everyImpact);
        await page.getByLabel("URL (https)").fill(`${web}/a11y-new-hook`);
        await page.getByRole("button", { name: "Add endpoint" }).click();
        await expect(page.getByTestId("webhook-secret")).toBeVisible();
        findings.push(...(await audit(page, "/admin/workspace/webhooks, a new endpoint's secret", everyImpact)));
        const endpoint = page
          .getByRole("list", { name: "Endpoints" })
          .getByRole("listitem")
          .filter({ hasText: `${web}/a11y-new-hook` });
        await endpoint.getByRole("button", { name: "Send test event" }).click();
        // The deliveries are read once when shown: only after the test event is stored.
        await expect(page.getByText("Test event queued")).toBeVisible();
        await endpoint.getByRole("button", { name: "Show deliveries" }).click();
        await expect(endpoint.getByRole("table", { name: "Deliveries" })).toContainText("webhook.test");
        await endpoint.getByRole("button", { name: "Change events" }).click();
        await expect(endpoint.getByRole("button", { name: "Save events" })).toBeVisible();
        findings.push(
          ...(await audit(page, "/admin/workspace/webhooks, deliveries shown, events being changed", everyImpact)),
        );
        expectNone(findings);
      });

      test("the dashboard's card-by-platform panel", async ({ page }) => {
        await page.goto("/admin");
        await hydrated(page);
        await page.getByRole("button", { name: "Card by platform for Spring launch" }).click();
        await expect(page.getByTestId("platform-fetch").first()).toBeVisible();
        expectNone(await audit(page, "/admin, card by platform open"));
      });

      test("the VAT exemption dialog", async ({ page }) => {
        await page.goto("/pricing");
        await hydrated(page);
        expectNone(await auditVatDialog(page, "/pricing signed in"));
      });
    });
  });
}
