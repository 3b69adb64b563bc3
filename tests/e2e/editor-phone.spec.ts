// The link editor on a phone (390 px): the live preview can be kept in sight while typing, a rule's target URL
// gets the width to be read, the country field's example does not pass for a value, the expiry says its time
// zone, and toasts neither repeat what a field already says nor cover the field being edited.
import { expect, test, type Locator } from "@playwright/test";
import { hydrated, raiseToast, subscribedUser } from "./helpers.ts";

test.use({ viewport: { width: 390, height: 844 } });

/** Whether the element is on screen and on top at its centre (nothing covers it). */
const uncovered = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
    const top = document.elementFromPoint(x, y);
    return top !== null && (top === element || element.contains(top));
  });

test("the live preview stays in sight while typing the title, and the title field is not covered", async ({ page }) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  const title = page.getByLabel("Title", { exact: true });
  await title.scrollIntoViewIfNeeded();
  await title.click();
  await page.getByRole("button", { name: "Show preview" }).click();
  await expect(page.getByRole("button", { name: "Hide preview" })).toHaveAttribute("aria-expanded", "true");
  await title.pressSequentially("Spring launch");
  await expect(page.getByTestId("preview-title")).toHaveText("Spring launch");
  await expect(page.getByTestId("preview-title")).toBeInViewport();
  expect(await uncovered(page.getByTestId("preview-title"))).toBe(true);
  expect(await uncovered(title)).toBe(true);
  await page.screenshot({ path: test.info().outputPath("editor-390-preview.png") });
  // Further down the form too: the description scrolls clear of the sheet.
  const description = page.getByLabel("Description", { exact: true });
  await description.click();
  await description.pressSequentially("New in spring");
  await expect(page.getByTestId("preview-description")).toHaveText("New in spring");
  expect(await uncovered(description)).toBe(true);
  expect(await uncovered(page.getByTestId("preview-title"))).toBe(true);
});

test("a rule's target URL is wide enough to read; the country example reads as an example; the expiry names its zone", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByText("Expiry, password and targets").click();
  await expect(page.getByTestId("expires-zone")).toContainText(/In your time zone \(.+\)/);
  await page.getByRole("button", { name: "Add a rule" }).click();
  await page.getByLabel("Rule kind").selectOption("country");
  const country = page.getByLabel("Country code");
  expect(await country.getAttribute("placeholder")).toMatch(/^e\.g\. /);
  const url = page.getByLabel("Rule target URL");
  await url.fill("https://example.com/de/sommer");
  expect(await url.evaluate((input: HTMLInputElement) => input.scrollWidth <= input.clientWidth)).toBe(true);
});

test("toasts: an available slug is said at the field only, and a toast keeps off the field being edited", async ({
  page,
}) => {
  await subscribedUser(page, "pro");
  await page.goto("/admin/link/new");
  await hydrated(page);
  await page.getByLabel("Custom URL").fill(`free${Date.now().toString(36)}`);
  await page.getByLabel("Title", { exact: true }).click();
  await expect(page.getByText("Custom slug available")).toBeVisible();
  await expect(page.getByTestId("toast")).toHaveCount(0);

  // The field being typed in at the bottom of the screen, where a toast would go first.
  const description = page.getByLabel("Description", { exact: true });
  await description.evaluate((element) => {
    const box = element.getBoundingClientRect();
    window.scrollBy(0, box.bottom - window.innerHeight + 8);
  });
  await description.focus();
  await raiseToast(page, "Saved", "Something happened elsewhere");
  const toast = page.getByTestId("toast");
  await expect(toast).toBeVisible();
  const [field, shown] = [await description.boundingBox(), await toast.boundingBox()];
  const overlaps = field!.y < shown!.y + shown!.height && shown!.y < field!.y + field!.height;
  expect(overlaps).toBe(false);
});
