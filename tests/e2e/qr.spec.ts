// The dashboard's QR code dialog and audience numbers in a real browser.
import { expect, test } from "@playwright/test";
import { createLink, hydrated, subscribedUser } from "./helpers.ts";

test("a link's QR code opens in a dialog with the code and SVG/PNG downloads; the stats name the unique visitors", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  const { id } = await createLink(page, {
    title: "Poster",
    description: "On the wall",
    targetUrl: "https://example.com/",
    customLinkSlug: "poster",
  });

  await page.goto("/admin");
  await hydrated(page);
  await expect(page.getByText("daily unique visitors, summed").first()).toBeVisible();
  await expect(page.getByTestId("stat-unique-visitors")).toHaveText("0");
  await expect(page.getByTestId("stat-qr-scans")).toHaveText("0");

  await page.getByRole("button", { name: "QR code for Poster" }).click();
  const dialog = page.getByRole("dialog", { name: "QR code" });
  await expect(dialog).toBeVisible();
  const image = dialog.getByRole("img", { name: "QR code for Poster" });
  await expect(image).toBeVisible();
  // Loaded with the session cookie, and drawn: the SVG has its size.
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
  await expect(dialog.getByRole("link", { name: "Download SVG" })).toHaveAttribute(
    "href",
    `/api/links/${id}/qr?format=svg&size=1024`,
  );
  await expect(dialog.getByRole("link", { name: "Download SVG" })).toHaveAttribute("download", "poster-qr.svg");
  const png = dialog.getByRole("link", { name: "Download PNG" });
  await expect(png).toHaveAttribute("download", "poster-qr.png");
  const download = page.waitForEvent("download");
  await png.click();
  expect((await download).suggestedFilename()).toBe("poster-qr.png");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});
