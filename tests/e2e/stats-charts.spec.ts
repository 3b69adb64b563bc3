// The statistics charts on a phone and a wide screen: each fills its card, and every axis and bar label is drawn at
// 11 px or more (SVG text scales with its drawing, so a wide drawing shrunk onto a phone made it unreadable).
import { expect, test } from "@playwright/test";
import { subscribedUser } from "./helpers.ts";

for (const width of [390, 360, 1280]) {
  test(`at ${width} px the charts fill their cards and their text is at least 11 px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await subscribedUser(page, "pro");
    const origin = new URL(page.url()).origin;
    const made = await page.request.post("/api/links", {
      headers: { origin },
      data: {
        title: "Chart check",
        description: "A card",
        targetUrl: "https://example.com/",
        customLinkSlug: `ch${width}`,
      },
    });
    const { currentShortUrl } = await made.json();
    await page.request.get(currentShortUrl, {
      maxRedirects: 0,
      headers: { referer: "https://forum.example.net/thread/42" },
    });
    await page.request.get(currentShortUrl, {
      headers: { "user-agent": "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)" },
    });
    await expect(async () => {
      await page.goto(`/admin/link/stats/ch${width}`);
      await expect(page.getByRole("img", { name: /People by referrer: forum\.example\.net 1/ })).toBeVisible({
        timeout: 200,
      });
    }).toPass({ timeout: 5000 });

    const charts = await page.locator("svg[role=img]").evaluateAll((svgs) =>
      svgs
        .filter((svg) => svg.getBoundingClientRect().width > 0)
        .map((svg) => {
          const scale = svg.getBoundingClientRect().width / (svg as SVGSVGElement).viewBox.baseVal.width;
          const card = svg.closest("section")!;
          const style = getComputedStyle(card);
          const inner = card.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
          const sizes = [...svg.querySelectorAll("text")].map((text) => Number(text.getAttribute("font-size")) * scale);
          return {
            name: svg.getAttribute("aria-label") ?? svg.getAttribute("aria-labelledby"),
            fills: svg.getBoundingClientRect().width >= inner - 1,
            smallest: Math.min(...sizes),
          };
        }),
    );
    expect(charts.length).toBe(4);
    for (const chart of charts) {
      expect(chart.fills, `${chart.name} fills its card`).toBe(true);
      expect(chart.smallest, `${chart.name} text size`).toBeGreaterThanOrEqual(11);
    }
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
    ).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`stats-${width}.png`), fullPage: true });
  });
}
