// Asking for a sign-in link by e-mail in Chromium: the bare instance (tests/e2e/server.ts) sends it to a real SMTP
// server, the browser opens the link from the parsed message and is signed in.
import { expect, test } from "@playwright/test";
import { fakes } from "./helpers.ts";

const info = (path: string) => fetch(`http://127.0.0.1:${process.env.LINKPREV_E2E_INFO_PORT}${path}`);

test("the sign-in form e-mails a link that signs in", async ({ page }) => {
  const { bare } = await fakes();
  const email = await (await info("/bare-account")).text();
  await page.goto(`${bare}/`);
  await page.getByRole("banner").getByRole("link", { name: "Sign in", exact: true }).click();
  await page.getByLabel("Your e-mail address").fill(email.toUpperCase());
  await page.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check your inbox");
  await expect(page.getByRole("main")).toContainText(`If an account here uses ${email}, a sign-in link is on its way`);

  const delivered = await info(`/bare-mail?to=${encodeURIComponent(email)}`);
  expect(delivered.status).toBe(200);
  const mail = (await delivered.json()) as { subject: string; text: string; html: string };
  expect(mail.subject).toBe(`Your sign-in link for LinkPrev (${new URL(bare).host})`);
  const link = mail.text.match(/http\S+\/login\/\S+/)![0];
  expect(link.startsWith(`${bare}/login/`)).toBe(true);

  await page.goto(link);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login/"));
  const me = await page.request.get(`${bare}/api/auth/user`);
  expect(((await me.json()) as { email: string }).email).toBe(email);
});
