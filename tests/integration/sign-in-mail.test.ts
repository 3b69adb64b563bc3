// Sign-in links asked for by e-mail on the sign-in page (SMTP_URL): a real SMTP server process on loopback
// (tests/helpers/smtp-receiver.ts) receives and parses the message; the link in it signs in once.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { Browser } from "../helpers/browser.ts";
import { seedUser, startTestServer, type TestServer } from "../helpers/server.ts";
import { startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver.ts";

let smtp: SmtpReceiver;
let server: TestServer;

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startTestServer({
    SMTP_URL: smtp.url,
    MAIL_FROM: "LinkPrev <links@example.com>",
    AUTH_RATE_LIMIT: "10000",
  });
});
afterAll(async () => {
  await server.close();
  await smtp.close();
});

const askForLink = (browser: Browser, email: string) =>
  browser.fetch("/api/auth/login-link/email", { method: "POST", body: new URLSearchParams({ email }) });

test("the sign-in page offers the form; the mailed link (text and HTML) signs in once", async () => {
  const page = await (await fetch(`${server.url}/api/auth/google`)).text();
  expect(page).toContain('action="/api/auth/login-link/email"');
  expect(page).toContain("E-mail me a sign-in link");

  const ana = await seedUser(server.sql, { email: "ana.mail@example.com" });
  const browser = new Browser(server.url);
  const answer = await askForLink(browser, "  Ana.Mail@Example.com ");
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain("Check your inbox");

  const mail = await smtp.mailTo(ana.email);
  expect(mail.from).toContain("links@example.com");
  expect(mail.subject).toBe(`Your sign-in link for LinkPrev (${new URL(server.url).host})`);
  const link = mail.text.match(/http\S+\/login\/(\S+)/)!;
  expect(link[0].startsWith(`${server.url}/login/`)).toBe(true);
  expect(mail.html).toContain(`<a href="${link[0]}">Sign in to LinkPrev</a>`);
  expect(mail.text).toContain("works once, within 15 minutes");

  const signIn = await browser.fetch("/api/auth/login-link", {
    method: "POST",
    body: new URLSearchParams({ token: link[1]! }),
  });
  expect(signIn.status).toBe(303);
  const me = await (await browser.fetch("/api/auth/user")).json();
  expect(me.email).toBe(ana.email);

  const again = await new Browser(server.url).fetch("/api/auth/login-link", {
    method: "POST",
    body: new URLSearchParams({ token: link[1]! }),
  });
  expect(again.status).toBe(400);
});

test("an address without an account gets the same page and no mail", async () => {
  const browser = new Browser(server.url);
  const stranger = await askForLink(browser, "nobody.here@example.com");
  const known = await seedUser(server.sql, { email: "known.mail@example.com" });
  const member = await askForLink(browser, known.email);
  expect(stranger.status).toBe(member.status);
  const strip = (html: string, email: string) => html.replaceAll(email, "ADDRESS");
  expect(strip(await stranger.text(), "nobody.here@example.com")).toBe(
    strip(await member.text(), "known.mail@example.com"),
  );
  // The stranger asked first, and nothing is sent for an address without an account, so had anything been sent
  // it would have gone before the member's message arrived.
  await smtp.mailTo(known.email);
  expect(smtp.received.filter((mail) => mail.to.includes("nobody.here@example.com"))).toEqual([]);
});

test("a bad address is a 400 naming what is wrong; one address gets at most 5 links an hour", async () => {
  const browser = new Browser(server.url);
  const bad = await askForLink(browser, "not-an-address");
  expect(bad.status).toBe(400);
  expect(await bad.text()).toContain("Enter an e-mail address such as ana@example.com");

  const flooded = await seedUser(server.sql, { email: "flooded@example.com" });
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await askForLink(browser, flooded.email)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  for (let i = 0; i < 5; i++) await smtp.mailTo(flooded.email);
});

test("an unreachable mail server never shows: the page answers as usual", async () => {
  const broken = await startTestServer({ SMTP_URL: "smtp://nobody:x@127.0.0.1:9", AUTH_RATE_LIMIT: "10000" });
  try {
    const user = await seedUser(broken.sql, { email: "unlucky@example.com" });
    const answer = await askForLink(new Browser(broken.url), user.email);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain("Check your inbox");
  } finally {
    await broken.close();
  }
});
