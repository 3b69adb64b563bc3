// The web shell in a real browser: pages, toasts, flash toasts, the avatar menu, and the JS budget.
import { expect, test } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { consentedUser, hydrated, raiseToast, signIn, watchConsole } from "./helpers.ts";

const PUBLIC_PAGES = ["/", "/pricing", "/about", "/privacy", "/terms", "/contact"];

test("every public page, signed out and signed in: no console errors, a screenshot each", async ({ page }, info) => {
  const errors = watchConsole(page);
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await hydrated(page);
    await page.screenshot({
      path: info.outputPath(`signed-out${path === "/" ? "-landing" : path.replace("/", "-")}.png`),
      fullPage: true,
    });
  }
  await signIn(page);
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await hydrated(page);
    await page.screenshot({
      path: info.outputPath(`signed-in${path === "/" ? "-landing" : path.replace("/", "-")}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto("/pricing");
  await page.screenshot({ path: info.outputPath("pricing-360px.png"), fullPage: true });
  expect(errors).toEqual([]);
});

test("a guard redirect shows its flash toast once", async ({ page }) => {
  await page.goto("/payment-success");
  await expect(page).toHaveURL(/\/$/);
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Authentication required");
  await expect(toast).toContainText("Please sign in to access this page");
  await page.reload();
  await hydrated(page);
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("the toaster: one toast at a time, F8 focuses it, dismiss by button, by swipe, and after 5 s", async ({
  page,
}) => {
  await page.clock.install();
  await page.goto("/");
  await hydrated(page);
  await raiseToast(page, "First");
  await raiseToast(page, "Second");
  await expect(page.getByTestId("toast")).toHaveCount(1);
  await expect(page.getByTestId("toast")).toContainText("Second");

  await page.keyboard.press("F8");
  await expect(page.getByRole("list", { name: "Notifications (F8)" })).toBeFocused();

  await page.getByRole("button", { name: "Dismiss notification" }).click();
  await expect(page.getByTestId("toast")).toHaveCount(0);

  await raiseToast(page, "Swipe me");
  const box = (await page.getByTestId("toast").boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 40, box.y + box.height / 2, { steps: 2 });
  await page.mouse.up();
  // 20 px is not past the 50 px threshold: it stays.
  await expect(page.getByTestId("toast")).toHaveCount(1);
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 100, box.y + box.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(page.getByTestId("toast")).toHaveCount(0);

  await raiseToast(page, "Short-lived");
  await expect(page.getByTestId("toast")).toHaveCount(1);
  await page.clock.runFor(4900);
  await expect(page.getByTestId("toast")).toHaveCount(1);
  await page.clock.runFor(200);
  await expect(page.getByTestId("toast")).toHaveCount(0);
});

test("a toast survives any number of short drags, goes with a long one, and its text is never selected", async ({
  page,
}) => {
  await page.goto("/");
  await hydrated(page);
  await raiseToast(page, "Drag me", "Short drags put me back");
  const toast = page.getByTestId("toast");
  const box = (await toast.boundingBox())!;
  const y = box.y + box.height / 2;
  const backInPlace = () => expect.poll(async () => (await toast.boundingBox())?.x).toBe(box.x);
  const drag = async (from: number, by: number, down = 0) => {
    await page.mouse.move(box.x + from, y);
    await page.mouse.down();
    await page.mouse.move(box.x + from + by, y + down, { steps: 4 });
    await page.mouse.up();
  };
  // Each short drag (under the 50 px threshold) puts the toast back where it was, with nothing selected.
  for (const [from, by] of [
    [20, 30],
    [30, 45],
    [10, 40],
  ] as const) {
    await drag(from, by);
    await expect(toast).toHaveCount(1);
    await backInPlace();
    expect(await page.evaluate(() => String(window.getSelection()))).toBe("");
  }
  // Dragging left does nothing either.
  await drag(150, -100);
  await expect(toast).toHaveCount(1);
  await backInPlace();
  // The Dismiss button still answers a click after the drags.
  await toast.getByRole("button", { name: "Dismiss notification" }).click();
  await expect(toast).toHaveCount(0);

  await raiseToast(page, "Drag me again");
  await drag(20, 25);
  await drag(20, 25);
  await expect(toast).toHaveCount(1);
  // The long one ends below the toast, off it: the toast still follows the pointer to the end.
  await drag(20, 80, box.height);
  await expect(toast).toHaveCount(0);
});

test("the avatar menu works by keyboard", async ({ page }) => {
  await signIn(page, { given_name: "Marta", family_name: "Costa" });
  await page.goto("/about");
  await hydrated(page);
  // The accessible name starts with the initials the button shows (WCAG 2.5.3, label in name).
  const button = page.getByRole("button", { name: "MC, account menu for Marta Costa", exact: true });
  await expect(button).toHaveText("MC");
  await button.focus();
  await page.keyboard.press("Enter");
  const menu = page.getByRole("menu", { name: "Account" });
  await expect(menu).toBeVisible();
  await expect(menu).toContainText("Marta Costa");
  await expect(menu).toContainText("No active subscription");
  await expect(page.getByRole("menuitem", { name: "Dashboard" })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("menuitem", { name: "Get subscription" })).toBeFocused();
  await page.keyboard.press("End");
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("d");
  await expect(page.getByRole("menuitem", { name: "Dashboard" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(menu).toBeHidden();
  await expect(button).toBeFocused();
  // ArrowUp opens the menu at its last item.
  await page.keyboard.press("ArrowUp");
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(button).toBeFocused();
  // A key pressed straight after opening already acts on the menu (focus moves in as it appears, not a frame
  // later), and a late focus move never takes the choice away: Enter on 'Sign out' signs out.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("End");
  await expect(page.getByRole("menuitem", { name: "Sign out" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Access" })).toBeVisible();
});

test("on a phone the top bar stays one row: folded navigation that opens and works, Access or the avatar beside it", async ({
  page,
}) => {
  const header = page.getByRole("banner");
  const brand = header.getByRole("link", { name: "LinkPrev", exact: true });
  const summary = header.locator("summary", { hasText: "Menu" });
  await page.goto("/about");
  const wideHeight = (await header.boundingBox())!.height;

  /** The bar is as tall as on a wide screen, `end` sits on the brand's row, and nothing runs off the side. */
  const oneRow = async (end: import("@playwright/test").Locator, width: number) => {
    await expect(end).toBeVisible();
    const bar = (await header.boundingBox())!;
    expect(bar.height).toBe(wideHeight);
    const brandBox = (await brand.boundingBox())!;
    const endBox = (await end.boundingBox())!;
    expect(Math.abs(endBox.y + endBox.height / 2 - (brandBox.y + brandBox.height / 2))).toBeLessThanOrEqual(1);
    expect(endBox.x + endBox.width).toBeLessThanOrEqual(width);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  };

  for (const width of [360, 390, 420]) {
    await page.setViewportSize({ width, height: 740 });
    await page.goto("/about");
    await oneRow(header.getByRole("link", { name: "Access" }), width);
  }

  // Folded: the links show only once the menu is opened, by pointer...
  await page.setViewportSize({ width: 360, height: 740 });
  await expect(header.getByRole("link", { name: "Pricing" })).toBeHidden();
  await summary.click();
  await expect(header.getByRole("link", { name: "About" })).toBeVisible();
  await expect(header.getByRole("link", { name: "Contact" })).toBeVisible();
  await header.getByRole("link", { name: "Pricing" }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  // ...or by keyboard (no script needed: a <details> disclosure).
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(header.getByRole("link", { name: "About" })).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(header.getByRole("link", { name: "About" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/about$/);
  await expect(header.getByRole("link", { name: "About" })).toBeHidden();

  // Signed in, the avatar takes Access's place on the same row.
  await consentedUser(page, { given_name: "Rui", family_name: "Lopes" });
  await page.goto("/contact");
  await hydrated(page);
  await oneRow(header.getByRole("button", { name: "RL, account menu for Rui Lopes", exact: true }), 360);
  await summary.click();
  await header.getByRole("link", { name: "About" }).click();
  await expect(page).toHaveURL(/\/about$/);
});

test("JS budget: no script on pages without islands; the landing page's total, gzipped", async ({ page }) => {
  const scripts = new Map<string, number>();
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script")
      scripts.set(response.url(), gzipSync(await response.body()).length);
  });
  for (const path of ["/about", "/privacy", "/terms", "/contact", "/account-deleted", "/no-such-page"]) {
    scripts.clear();
    await page.goto(path);
    await hydrated(page);
    expect({ path, scripts: scripts.size }).toEqual({ path, scripts: 0 });
  }
  scripts.clear();
  await page.goto("/");
  await hydrated(page);
  const total = [...scripts.values()].reduce((a, b) => a + b, 0);
  console.log(`landing page JS: ${scripts.size} files, ${(total / 1024).toFixed(1)} KB gzipped`);
  expect(total).toBeGreaterThan(0);
  expect(total).toBeLessThanOrEqual(60 * 1024);
});
