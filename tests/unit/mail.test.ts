// Outgoing mail's settings and messages: SMTP_URL is read once and never echoed; a message's HTML escapes what it
// interpolates. (Sending, to a real SMTP server: tests/integration/sign-in-mail.test.ts.)
import { expect, test } from "bun:test";
import { loginLinkMail } from "../../src/auth/login-link-mail.ts";
import { loadConfig } from "../../src/config/config.ts";

test("settings: no SMTP_URL, no mail; the sender defaults to PUBLIC_URL's host; a bad URL is refused unechoed", () => {
  expect(loadConfig({}, {}).mail).toBeNull();
  expect(
    loadConfig({}, { SMTP_URL: "smtps://user:pass@smtp.example.com:465", PUBLIC_URL: "https://links.example" }).mail,
  ).toEqual({ smtpUrl: "smtps://user:pass@smtp.example.com:465", from: "LinkPrev <noreply@links.example>" });
  expect(loadConfig({}, { SMTP_URL: "smtp://relay:25", MAIL_FROM: "Links <links@example.com>" }).mail?.from).toBe(
    "Links <links@example.com>",
  );
  expect(() => loadConfig({}, { SMTP_URL: "https://user:hunter2@smtp.example.com" })).toThrow(/SMTP_URL=\(not shown/);
  expect(() => loadConfig({}, { SMTP_URL: "https://user:hunter2@smtp.example.com" })).not.toThrow(/hunter2/);
});

test("a sign-in link's message: the link in the text, escaped in the HTML", () => {
  const mail = loginLinkMail("ana@example.com", 'https://links.example/login/a&b"<c>', "https://links.example");
  expect(mail.to).toBe("ana@example.com");
  expect(mail.subject).toBe("Your sign-in link for LinkPrev (links.example)");
  expect(mail.text).toContain('\nhttps://links.example/login/a&b"<c>\n');
  expect(mail.html).toContain('<a href="https://links.example/login/a&amp;b&quot;&lt;c&gt;">');
  expect(mail.html).not.toContain("<c>");
});
