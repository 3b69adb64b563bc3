// What a newcomer meets, at 1280 and 390 px: an instance without Google or Stripe says so on every screen (no
// button that cannot work), and the editor judges limits as typed, takes an image by click, drag or paste, and
// shows its toasts where they hide neither the preview nor the avatar.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { axeOf, fakes, hydrated, pngBytes, raiseToast, signInOnBare, subscribedUser } from "./helpers.ts";

const VIEWPORTS = [
  { name: "wide", width: 1280, height: 800 },
  { name: "phone", width: 390, height: 844 },
];
const BILLING_OFF_NOTE = "Billing is off on this instance: every account has enterprise limits.";

async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

type Box = { x: number; y: number; width: number; height: number };
const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found).not.toBeNull();
  return found!;
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("without Google and Stripe, the landing page, pricing and subscription tab say so and offer nothing that fails", async ({
      page,
    }, testInfo) => {
      const { bare } = await fakes();
      await page.goto(`${bare}/`);
      await expect(page.getByRole("link", { name: "Sign in with a one-time link" })).toBeVisible();
      await expect(page.getByText("Get Started with Google")).toHaveCount(0);
      await expect(page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true })).toBeVisible();
      await expect(page.getByRole("banner").getByRole("link", { name: "Access" })).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`landing-bare-${viewport.width}.png`), fullPage: true });

      await page.goto(`${bare}/pricing`);
      await hydrated(page);
      await expect(page.getByTestId("billing-off")).toHaveText(BILLING_OFF_NOTE);
      await expect(page.locator("[data-plan] button")).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);

      await signInOnBare(page, bare);
      await page.goto(`${bare}/pricing`);
      await expect(page.getByTestId("billing-off")).toBeVisible();
      await expect(page.getByRole("button", { name: /Subscribe|Downgrade|Upgrade|Current Plan/ })).toHaveCount(0);

      await page.goto(`${bare}/admin?tab=subscription`);
      await hydrated(page);
      const card = page.getByTestId("subscription-card");
      await expect(card).toContainText("Enterprise limits");
      await expect(card).toContainText(BILLING_OFF_NOTE);
      await expect(card.getByText("Active", { exact: true })).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: testInfo.outputPath(`subscription-bare-${viewport.width}.png`), fullPage: true });
    });

    test("the editor: a title over its limit is invalid as it is typed, and the counter says by how much", async ({
      page,
    }) => {
      await subscribedUser(page, "pro");
      await page.goto("/admin/link/new");
      await hydrated(page);
      const title = page.getByLabel("Title", { exact: true });
      await title.fill("x".repeat(60));
      await expect(title).toHaveAttribute("aria-invalid", "false");
      await expect(page.getByTestId("title-count")).toHaveText("60/60");
      await title.pressSequentially("yz");
      await expect(title).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByTestId("title-count")).toHaveText("62/60: 2 over the limit");
      await title.press("Backspace");
      await title.press("Backspace");
      await expect(title).toHaveAttribute("aria-invalid", "false");
      // The slug's prefix sits on its input's line, the same height.
      const prefix = await box(page.getByTestId("slug-prefix"));
      const slug = await box(page.locator("#customLinkSlug"));
      expect(Math.abs(prefix.y - slug.y)).toBeLessThanOrEqual(1);
      expect(Math.abs(prefix.height - slug.height)).toBeLessThanOrEqual(1);
    });

    test("the editor: the drop zone takes a click, a dropped file and a pasted image", async ({ page }) => {
      await subscribedUser(page, "pro");
      await page.goto("/admin/link/new");
      await hydrated(page);
      const zone = page.getByTestId("drop-zone");
      await expect(zone).toBeVisible();
      await expect(page.locator("#image-lint")).toHaveCount(0);

      const chooser = page.waitForEvent("filechooser");
      await zone.click();
      await (await chooser).setFiles({ name: "clicked.png", mimeType: "image/png", buffer: pngBytes(1200, 630) });
      await expect(page.getByTestId("focal-picker")).toBeVisible();

      const bytes = [...pngBytes(64, 48)];
      const dropped = await page.evaluateHandle((data) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([new Uint8Array(data)], "dropped.png", { type: "image/png" }));
        return transfer;
      }, bytes);
      await zone.dispatchEvent("dragover", { dataTransfer: dropped });
      await expect(zone).toHaveAttribute("data-dragging", "true");
      await zone.dispatchEvent("drop", { dataTransfer: dropped });
      await expect(zone).not.toHaveAttribute("data-dragging", "true");
      await expect(page.locator('#image-lint [data-rule="image-below-minimum"]')).toContainText("64×48");

      await page.evaluate(
        (data) => {
          const transfer = new DataTransfer();
          transfer.items.add(new File([new Uint8Array(data)], "pasted.png", { type: "image/png" }));
          document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: transfer, bubbles: true }));
        },
        [...pngBytes(400, 300)],
      );
      await expect(page.locator('#image-lint [data-rule="image-too-small"]')).toContainText("400×300");
    });

    test("the editor: a toast covers neither the preview nor the avatar", async ({ page }) => {
      await subscribedUser(page, "pro");
      await page.goto("/admin/link/new");
      await hydrated(page);
      await raiseToast(page, "Custom slug available");
      const toast = page.getByTestId("toast");
      await expect(toast).toBeVisible();
      const placed = await box(toast);
      const preview = await box(page.locator("[aria-labelledby=preview-title-heading]"));
      const avatar = await box(
        page
          .getByRole("banner")
          .getByRole("button", { name: /account menu|Eva/i })
          .first(),
      );
      expect(intersects(placed, avatar)).toBe(false);
      expect(intersects(placed, preview)).toBe(false);
    });
  });
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.name} (${viewport.width} px), small things`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a new API token has a labelled name field and a copy button that copies it; Delete Link? names the link", async ({
      page,
      context,
    }) => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await subscribedUser(page, "pro");
      const origin = new URL(page.url()).origin;
      const created = await page.request.post("/api/links", {
        headers: { origin },
        data: { title: "Spring sale", description: "d", targetUrl: "https://example.com/" },
      });
      expect(created.ok()).toBe(true);
      await page.goto("/admin/workspace/tokens");
      await hydrated(page);
      await page.getByLabel("Token name").fill("laptop");
      await page.getByRole("button", { name: "Create token" }).click();
      const token = await page.getByTestId("new-token").textContent();
      expect(token).toMatch(/^lp_/);
      await page.getByRole("button", { name: "Copy token" }).click();
      await expect(page.getByTestId("toast")).toContainText("Token copied to clipboard");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

      await page.goto("/admin");
      await hydrated(page);
      await page.getByRole("button", { name: "Delete Spring sale" }).click();
      await expect(page.getByRole("dialog", { name: "Delete Link?" })).toContainText(
        "“Spring sale” will stop functioning",
      );
    });

    test("the 404 page's way home is a button, and the footer leaves no word alone on a line", async ({ page }) => {
      await page.goto("/no/such/page");
      const home = page.getByRole("link", { name: "Back to the home page" });
      expect(await home.evaluate((a) => getComputedStyle(a).backgroundColor)).not.toBe("rgba(0, 0, 0, 0)");
      const rows = new Map<number, number>();
      for (const link of await page.getByRole("navigation", { name: "Footer" }).getByRole("link").all()) {
        const y = Math.round((await box(link)).y);
        rows.set(y, (rows.get(y) ?? 0) + 1);
      }
      expect([...rows.values()].every((count) => count >= 2)).toBe(true);
    });
  });
}
