// An invite followed in Chromium: the owner invites an address, the invitee opens the mailed URL signed out, asks
// for a sign-in link from the invite page, signs in from the second mail and accepts with the page's button. The
// bare instance (tests/e2e/server.ts) sends its mail to a real SMTP server.
import { expect, test } from "@playwright/test";
import { fakes, signInOnBare } from "./helpers.ts";

const info = (path: string) => fetch(`http://127.0.0.1:${process.env.LINKPREV_E2E_INFO_PORT}${path}`);
const nextMail = async (to: string) => {
  const delivered = await info(`/bare-mail?to=${encodeURIComponent(to)}`);
  expect(delivered.status).toBe(200);
  return (await delivered.json()) as { subject: string; text: string };
};

test("an invitee signs in from the invite page and joins with its button", async ({ page, browser }) => {
  const { bare } = await fakes();
  await signInOnBare(page, bare);
  const [workspace] = (await (await page.request.get(`${bare}/api/workspaces`)).json()) as Array<{
    id: number;
    slug: string;
  }>;
  const email = await (await info("/bare-account")).text();
  const made = await page.request.post(`${bare}/api/workspaces/${workspace!.id}/invites`, {
    headers: { origin: bare },
    data: { email, role: "viewer" },
  });
  expect(made.status()).toBe(201);

  const invite = await nextMail(email);
  expect(invite.subject).toContain("invited you to");
  const url = invite.text.match(/http\S+\/invites\/\S+/)![0];

  const invitee = await (await browser.newContext()).newPage();
  await invitee.goto(url);
  await expect(invitee.getByRole("heading", { level: 1 })).toHaveText("Join Personal");
  await expect(invitee.getByRole("main")).toContainText(`Sign in with ${email} to accept`);
  await invitee.getByRole("button", { name: "E-mail me a sign-in link" }).click();
  await expect(invitee.getByRole("heading", { level: 1 })).toHaveText("Check your inbox");

  const signIn = await nextMail(email);
  await invitee.goto(signIn.text.match(/http\S+\/login\/\S+/)![0]);
  await invitee.getByRole("button", { name: "Sign in" }).click();
  await invitee.waitForURL((address) => !address.pathname.startsWith("/login/"));
  const consent = await invitee.request.post(`${bare}/api/auth/consent`, {
    headers: { origin: bare },
    data: { termsAccepted: true, privacyAccepted: true },
  });
  expect(consent.ok()).toBe(true);

  await invitee.goto(url);
  await invitee.getByRole("button", { name: "Accept and join" }).click();
  await invitee.waitForURL(`${bare}/admin?workspace=${workspace!.slug}`);
  const members = (await (await page.request.get(`${bare}/api/workspaces/${workspace!.id}/members`)).json()) as Array<{
    email: string;
    role: string;
  }>;
  expect(members.find((member) => member.email === email)?.role).toBe("viewer");
  await invitee.goto(url);
  await expect(invitee.getByRole("heading", { level: 1 })).toHaveText("Invite not valid");
});
