// A self-hosted instance's owner is not capped by the new-account limits on day one, and a newcomer who is
// capped reads why in the editor, in the server's words (the bare instance keeps NEW_ACCOUNT_LINKS at its 10), as
// with every other refusal the server explains.
import { expect, test, type Page } from "@playwright/test";
import { fakes, hydrated, signInOnBare, subscribedUser } from "./helpers.ts";

const NEW_ACCOUNT_LINKS = 10;

/** Makes `count` links through the API, as the CLI would, each answered 201. */
async function makeLinks(page: Page, origin: string, count: number) {
  for (let i = 0; i < count; i++) {
    const made = await page.request.post(`${origin}/api/links`, {
      headers: { origin },
      data: { title: `Post ${i}`, description: "d", targetUrl: `https://blog${i}.example/` },
    });
    expect(made.status()).toBe(201);
  }
}

async function createInEditor(page: Page, origin: string, title: string, targetUrl = "https://one-more.example/") {
  await page.goto(`${origin}/admin/link/new`);
  await hydrated(page);
  await page.getByLabel("Title", { exact: true }).fill(title);
  await page.getByLabel("Description", { exact: true }).fill("One more");
  await page.getByLabel("Target URL").fill(targetUrl);
  await page.getByRole("button", { name: "Create Link" }).click();
}

test("the instance owner creates an eleventh link on day one", async ({ page }) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare, "owner");
  await makeLinks(page, bare, NEW_ACCOUNT_LINKS);
  await createInEditor(page, bare, "Owner's eleventh");
  await page.waitForURL(`${bare}/admin`);
  await expect(page.getByTestId("toast")).toContainText("Link created successfully");
  await expect(page.getByRole("link", { name: "Edit Owner's eleventh" })).toBeVisible();
});

test("a new account past NEW_ACCOUNT_LINKS reads the server's reason in the editor, not 'Please try again'", async ({
  page,
}) => {
  const { bare } = await fakes();
  // The owner exists first, so that this account is a newcomer.
  await (await fetch(`http://127.0.0.1:${process.env.LINKPREV_E2E_INFO_PORT}/bare-owner-login-link`)).text();
  await signInOnBare(page, bare);
  await makeLinks(page, bare, NEW_ACCOUNT_LINKS);
  await createInEditor(page, bare, "One too many");
  const reason = `New accounts can create ${NEW_ACCOUNT_LINKS} links in their first 24 hours. Try again after`;
  await expect(page.getByTestId("toast")).toContainText(reason);
  await expect(page.getByTestId("toast")).not.toContainText("Please try again");
  // Kept beside the button once the toast is gone.
  await expect(page.getByTestId("save-refused")).toContainText(reason);
  await expect(page).toHaveURL(`${bare}/admin/link/new`);
});

test("the editor says the server's other reasons in its words: a target on this server at its field, the plan's quota", async ({
  page,
  baseURL,
}) => {
  await subscribedUser(page, "basic");
  const origin = baseURL!;
  await createInEditor(page, origin, "Loop", `${origin}/go/someone/sale`);
  const own = "The target URL cannot be a LinkPrev short URL or another address of this server";
  await expect(page.getByTestId("toast")).toContainText(own);
  // At the field, without the field's name before it.
  await expect(page.getByText(own, { exact: true })).toBeVisible();

  await makeLinks(page, origin, 20);
  await createInEditor(page, origin, "Twenty-first");
  await expect(page.getByTestId("save-refused")).toHaveText(
    "You have used all 20 links of the Basic plan. Delete a link or upgrade at /pricing.",
  );
});

test("a failure the server does not explain keeps the spec's toast", async ({ page, baseURL }) => {
  await subscribedUser(page, "basic");
  await page.route("**/api/links", (route) =>
    route.request().method() === "POST"
      ? route.fulfill({
          status: 500,
          contentType: "application/json",
          body: '{"message":"Something went wrong on our side. Please try again."}',
        })
      : route.fallback(),
  );
  await createInEditor(page, baseURL!, "Unlucky");
  await expect(page.getByTestId("toast")).toContainText("Failed to create link. Please try again.");
  await expect(page.getByTestId("save-refused")).toHaveCount(0);
});
