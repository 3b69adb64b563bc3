// The web shell in a real browser: pages, toasts, flash toasts, the avatar menu, and the JS budget.
import { expect, test } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { hydrated, raiseToast, signIn, watchConsole } from "./helpers.ts";

const PUBLIC_PAGES = ["/", "/pricing", "/about", "/privacy", "/terms", "/contact"];

test("every public page, signed out and signed in: no console errors, a screenshot each", async ({ page }, info) => {
  const errors = watchConsole(page);
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await hydrated(page);
    await page.screenshot({ path: info.outputPath(`signed-out${path === "/" ? "-landing" : path.replace("/", "-")}.png`), fullPage: true });
  }
  await signIn(page);
  for (const path of PUBLIC_PAGES) {
    await page.goto(path);
    await hydrated(page);
    await page.screenshot({ path: info.outputPath(`signed-in${path === "/" ? "-landing" : path.replace("/", "-")}.png`), fullPage: true });
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

test("the toaster: one toast at a time, F8 focuses it, dismiss by button, by swipe, and after 5 s", async ({ page }) => {
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

test("the avatar menu works by keyboard", async ({ page }) => {
  await signIn(page, { given_name: "Marta", family_name: "Costa" });
  await page.goto("/about");
  await hydrated(page);
  const button = page.getByRole("button", { name: "Account menu for Marta Costa" });
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
  await button.press("ArrowDown");
  await page.getByRole("menuitem", { name: "Sign out" }).press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: "Access" })).toBeVisible();
});

test("JS budget: no script on pages without islands; the landing page's total, gzipped", async ({ page }) => {
  const scripts = new Map<string, number>();
  page.on("response", async (response) => {
    if (response.request().resourceType() === "script") scripts.set(response.url(), gzipSync(await response.body()).length);
  });
  for (const path of ["/about", "/privacy", "/terms", "/contact", "/no-such-page"]) {
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
