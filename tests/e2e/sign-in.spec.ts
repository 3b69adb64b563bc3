// Sign-in tells the truth: signed in, the landing page and the top bar offer the dashboard, never signing in
// again; without Google, "Sign in" leads to a page that says how to get in on this instance, as a page of the site.
import { expect, test } from "@playwright/test";
import { axeOf, fakes, signInOnBare, subscribedUser } from "./helpers.ts";

for (const width of [1280, 390]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: 844 } });

    test("without Google: Sign in explains the one-time links (by e-mail: this instance sends mail); signed in, the landing offers the dashboard", async ({
      page,
    }) => {
      const { bare } = await fakes();
      await page.goto(`${bare}/`);
      await page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true }).click();
      const heading = page.getByRole("heading", { level: 1 });
      await expect(heading).toHaveText("Sign in to LinkPrev");
      await expect(page.getByRole("button", { name: "E-mail me a sign-in link" })).toBeVisible();
      await expect(page.getByRole("main")).toContainText("Or ask the person who runs this instance for a sign-in link");
      await expect(page.getByRole("main")).toContainText("linkprev admin login-link --email you@example.com");
      await expect(page.getByText(/Something went wrong|Sign-in failed/)).toHaveCount(0);
      // Headings stand apart from the text around them.
      const headingBox = (await heading.boundingBox())!;
      const next = (await page.getByRole("main").locator("h1 + p").boundingBox())!;
      expect(next.y - (headingBox.y + headingBox.height)).toBeGreaterThanOrEqual(8);
      // As every page (tests/e2e/a11y.spec.ts): no serious or critical axe finding.
      const { violations } = await axeOf(page)
        .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
        .analyze();
      expect(violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

      await signInOnBare(page, bare);
      await page.goto(`${bare}/`);
      await expect(page.getByRole("main").getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute(
        "href",
        "/admin",
      );
      await expect(page.getByRole("link", { name: "Sign in with a one-time link" })).toHaveCount(0);
      await expect(page.getByRole("banner").getByRole("link", { name: /Sign in|Access/ })).toHaveCount(0);
      // A sign-in link followed while signed in (a bookmark, an old tab) goes to the dashboard.
      await page.goto(`${bare}/api/auth/google`);
      await expect(page).toHaveURL(`${bare}/admin`);
    });

    test("with Google: signed in, the landing offers the dashboard instead of 'Get Started with Google'", async ({
      page,
      baseURL,
    }) => {
      await subscribedUser(page, "basic");
      await page.goto("/");
      await expect(page.getByRole("main").getByRole("link", { name: "Go to your dashboard" })).toHaveAttribute(
        "href",
        "/admin",
      );
      await expect(page.getByText("Get Started with Google")).toHaveCount(0);
      await expect(page.getByRole("banner").getByRole("link", { name: /Sign in|Access/ })).toHaveCount(0);
      await page.goto("/api/auth/google");
      await expect(page).toHaveURL(`${baseURL}/admin`);
    });
  });
}
