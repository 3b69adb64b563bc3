// Signing out in a real browser: a link on another site to /api/auth/logout no longer signs you out (Chromium
// says Sec-Fetch-Site: cross-site); it asks, and the button does. Our own navigation still signs out at once.
import { expect, test, type Page } from "@playwright/test";
import { axeOf, consentedUser, subscribedUser } from "./helpers.ts";

const signedIn = async (page: Page) => (await page.context().cookies()).some((cookie) => cookie.name === "lp_session");

test("a link on another site asks before signing out; the Sign out button signs out", async ({ page, baseURL }) => {
  await subscribedUser(page, "basic");
  // Another site, served by the browser's network layer: a page with a link to our sign-out.
  await page.route("https://elsewhere.example/**", (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><title>Elsewhere</title><a href="${baseURL}/api/auth/logout">Win a prize</a>`,
    }),
  );
  await page.goto("https://elsewhere.example/prize");
  await page.getByRole("link", { name: "Win a prize" }).click();
  await expect(page.getByRole("heading", { name: "Sign out?" })).toBeVisible();
  expect(await signedIn(page)).toBe(true);
  // As every page (tests/e2e/a11y.spec.ts): no serious or critical axe finding.
  const { violations } = await axeOf(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  await page.getByRole("link", { name: "No, back to my links" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  expect(await signedIn(page)).toBe(true);

  await page.goto("https://elsewhere.example/prize");
  await page.getByRole("link", { name: "Win a prize" }).click();
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(`${baseURL}/`);
  expect(await signedIn(page)).toBe(false);
});

test("the address bar signs out at once", async ({ page, baseURL }) => {
  await consentedUser(page);
  await page.goto("/api/auth/logout");
  await expect(page).toHaveURL(`${baseURL}/`);
  expect(await signedIn(page)).toBe(false);
});
