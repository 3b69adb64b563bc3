// The e-mail that carries a sign-in link (asked for on the sign-in page: src/auth/login-mail-routes.ts).
import { escapeHtml } from "../http/escape.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { LOGIN_LINK_MINUTES } from "./login-links.ts";

export function loginLinkMail(to: string, link: string, publicUrl: string): MailMessage {
  const site = new URL(publicUrl).host;
  const lines = [
    `Someone (we hope you) asked to sign in to LinkPrev at ${site} with this address.`,
    `Open this link to sign in; it works once, within ${LOGIN_LINK_MINUTES} minutes:`,
  ];
  const ignore = "If you did not ask for it, ignore this message: nobody can sign in without the link.";
  return {
    to,
    subject: `Your sign-in link for LinkPrev (${site})`,
    text: `${lines.join("\n")}\n\n${link}\n\n${ignore}\n`,
    html: `<p>${lines.map(escapeHtml).join("<br>")}</p><p><a href="${escapeHtml(link)}">Sign in to LinkPrev</a></p><p>${escapeHtml(link)}</p><p>${escapeHtml(ignore)}</p>`,
  };
}

/** Sign-in links e-mailed to one address per hour, whoever asks: the form must not become a way to flood a mailbox. */
export const LOGIN_MAILS_PER_HOUR = 5;
