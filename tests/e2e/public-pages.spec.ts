// The pages a visitor of a short link may meet instead of its target: the inspect page (address + "+"), the
// password form, the expired page and the disabled-link warning. Each wears the product's stylesheet, has no
// script, fits a 360 px screen without sideways scrolling, and axe finds nothing serious on it. Screenshots at
// 1280 and 390 px go to the test's output directory (not the repository), to be looked at.
import { expect, test, type Page } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { axeOf, fakes, subscribedUser } from "./helpers.ts";

type Made = { shortUrl: string };

async function makeLink(page: Page, slug: string, extra: Record<string, unknown> = {}): Promise<Made> {
  const origin = new URL(page.url()).origin;
  const made = await page.request.post("/api/links", {
    headers: { origin },
    data: {
      title: "Autumn sale at the corner bookshop",
      description: "Second-hand books, half price all week",
      targetUrl: `https://books.example.com/autumn/${"long-path-segment/".repeat(6)}?utm_source=newsletter`,
      customLinkSlug: slug,
      ...extra,
    },
  });
  expect(made.status()).toBe(201);
  return made.json();
}

/** The four pages, each as an address to open in the browser and the status it answers with. */
async function publicPages(page: Page): Promise<Array<{ name: string; url: string; status: number }>> {
  await subscribedUser(page, "pro");
  const stamp = Date.now().toString(36).slice(-5);
  const plain = await makeLink(page, `in${stamp}`);
  const locked = await makeLink(page, `pw${stamp}`, { password: "open sesame" });
  const once = await makeLink(page, `ex${stamp}`, { maxClicks: 1 });
  const bad = await makeLink(page, `ds${stamp}`);
  expect((await page.request.get(once.shortUrl, { maxRedirects: 0 })).status()).toBe(302);
  // An operator disables the last one, as `linkprev admin` does on a server (docs/cli.md).
  const address = new URL(bad.shortUrl).pathname.replace(/^\/go\//, "");
  execFileSync("bun", [
    "cli/linkprev.ts",
    "admin",
    "links",
    "disable",
    address,
    "--reason",
    "phishing kit",
    "--by",
    "ops@example",
    "--data",
    (await fakes()).dataDir,
  ]);
  await expect.poll(async () => (await page.request.get(bad.shortUrl, { maxRedirects: 0 })).status()).toBe(200);
  return [
    { name: "inspect", url: `${plain.shortUrl}+`, status: 200 },
    { name: "password", url: locked.shortUrl, status: 200 },
    { name: "expired", url: once.shortUrl, status: 410 },
    { name: "disabled", url: bad.shortUrl, status: 200 },
  ];
}

test("inspect, password, expired and disabled pages: the product's stylesheet, no script, nothing scrolls sideways at 360 px", async ({
  page,
}) => {
  for (const { name, url, status } of await publicPages(page)) {
    for (const width of [1280, 390, 360]) {
      await page.setViewportSize({ width, height: 800 });
      const response = await page.goto(url);
      expect(response?.status(), name).toBe(status);
      if (width !== 360)
        await page.screenshot({ path: test.info().outputPath(`${name}-${width}.png`), fullPage: true });
      const look = await page.evaluate(() => ({
        stylesheet: [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].some(
          (link) => /^\/assets\/styles\.[\w]+\.css$/.test(new URL(link.href).pathname) && link.sheet !== null,
        ),
        scripts: document.querySelectorAll("script").length,
        sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        heading: parseFloat(getComputedStyle(document.querySelector("h1")!).fontSize),
      }));
      expect(look, `${name} at ${width} px`).toEqual({
        stylesheet: true,
        scripts: 0,
        sideways: 0,
        heading: expect.any(Number),
      });
      // The stylesheet's heading, not the browser's default 2em.
      expect(look.heading, name).toBeLessThan(32);
      if (width === 390) {
        // As tests/e2e/a11y.spec.ts audits the app's pages: no serious or critical axe finding.
        const { violations } = await axeOf(page)
          .options({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } })
          .analyze();
        expect(
          violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${name}: ${v.id} ${v.nodes.map((n) => n.html).join(" ")}`),
        ).toEqual([]);
      }
    }
  }
});
