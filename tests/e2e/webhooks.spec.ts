// The Webhooks page: add an endpoint (its secret shown once), send a test event and see its delivery, resend it,
// rotate the secret, remove the endpoint.
import { expect, test } from "@playwright/test";
import { fakes, hydrated, subscribedUser } from "./helpers.ts";

test("add an endpoint, send a test event, see and resend its delivery, rotate the secret, remove it", async ({
  page,
}) => {
  const { web } = await fakes();
  await subscribedUser(page, "pro");
  await page.goto("/admin?tab=subscription");
  await page.getByRole("link", { name: "workspace settings" }).click();
  await page.getByRole("navigation", { name: "Workspace settings" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 2 })).toBeVisible();
  await hydrated(page);

  const url = `${web}/hooks`;
  await page.getByLabel("URL (https)").fill(url);
  await page.getByLabel("link.deleted").check();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = page.getByTestId("webhook-secret");
  await expect(secret).toHaveText(/^whsec_/);
  const first = await secret.textContent();
  const endpoint = page.getByRole("list", { name: "Endpoints" }).getByRole("listitem").filter({ hasText: url });
  await expect(endpoint).toContainText("link.created, link.deleted");

  await endpoint.getByRole("button", { name: "Send test event" }).click();
  await endpoint.getByRole("button", { name: "Show deliveries" }).click();
  const row = endpoint.getByRole("table", { name: "Deliveries" }).getByRole("row").filter({ hasText: "webhook.test" });
  // The fake web answers 404 for /hooks: the attempt is recorded with its code and retried later.
  await expect(async () => {
    await endpoint.getByRole("button", { name: "Refresh" }).click();
    await expect(row).toContainText("404", { timeout: 500 });
  }).toPass();
  await row.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText("Queued again")).toBeVisible();

  await endpoint.getByRole("button", { name: "Rotate secret" }).click();
  await expect(secret).not.toHaveText(first!);
  await expect(endpoint).toContainText("The previous secret still signs until");

  await endpoint.getByRole("button", { name: `Remove ${url}` }).click();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();
});

test("an endpoint's card: the secret copied, its events changed, paused (a test event waits) and resumed, deliveries readable", async ({
  page,
  context,
  baseURL,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  const { web } = await fakes();
  await subscribedUser(page, "pro");
  await page.goto("/admin/workspace/webhooks");
  await hydrated(page);

  const url = `${web}/card-hooks`;
  await page.getByLabel("URL (https)").fill(url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const secret = await page.getByTestId("webhook-secret").textContent();
  await page.getByRole("button", { name: "Copy secret" }).click();
  await expect(page.getByTestId("toast")).toContainText("Secret copied to clipboard");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret!);

  const endpoint = page.getByRole("list", { name: "Endpoints" }).getByRole("listitem").filter({ hasText: url });
  await endpoint.getByRole("button", { name: "Change events" }).click();
  await endpoint.getByLabel("link.created").uncheck();
  await endpoint.getByLabel("link.clicked").check();
  await endpoint.getByRole("button", { name: "Save events" }).click();
  await expect(endpoint).toContainText("Events: link.clicked");

  await endpoint.getByRole("button", { name: "Pause" }).click();
  await expect(endpoint.getByTestId("endpoint-state")).toHaveText("Paused");
  await endpoint.getByRole("button", { name: "Send test event" }).click();
  // The deliveries are read once when shown: only after the test event is stored.
  await expect(page.getByText("Test event queued")).toBeVisible();
  await endpoint.getByRole("button", { name: "Show deliveries" }).click();
  const table = endpoint.getByRole("table", { name: "Deliveries" });
  const row = table.getByRole("row").filter({ hasText: "webhook.test" });
  await expect(row).toContainText("Waiting");
  await expect(row).toContainText("Not sent yet");
  // Cells are spaced, not run together.
  expect(
    await row
      .getByRole("cell")
      .first()
      .evaluate((cell) => parseFloat(getComputedStyle(cell).paddingLeft)),
  ).toBeGreaterThan(0);
  await expect(table.getByRole("columnheader")).toHaveText([
    "Event",
    "Status",
    "Answer",
    "Queued",
    "Next attempt",
    "Actions",
  ]);

  // Still the same after a reload: the state is the server's.
  await page.reload();
  await hydrated(page);
  await expect(endpoint.getByTestId("endpoint-state")).toHaveText("Paused");
  await expect(endpoint).toContainText("Events: link.clicked");
  await endpoint.getByRole("button", { name: "Resume" }).click();
  await expect(endpoint.getByTestId("endpoint-state")).toHaveText("Active");
  await endpoint.getByRole("button", { name: "Show deliveries" }).click();
  // Resumed, the waiting test event is sent: the fake web answers 404 for this path.
  await expect(async () => {
    await endpoint.getByRole("button", { name: "Refresh" }).click();
    await expect(row).toContainText("HTTP 404", { timeout: 500 });
  }).toPass();
});
