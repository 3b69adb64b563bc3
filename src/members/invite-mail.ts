// The e-mail that carries an invite (with SMTP_URL; without it the inviter hands the URL on).
import { escapeHtml } from "../http/escape.ts";
import type { MailMessage } from "../mail/mailer.ts";
import { INVITE_DAYS } from "./model.ts";

export function inviteMail(invite: {
  to: string;
  url: string;
  workspaceName: string;
  role: string;
  inviter: string;
}): MailMessage {
  const lines = [
    `${invite.inviter} invited you to the workspace "${invite.workspaceName}" on LinkPrev, as ${invite.role}.`,
    `Open this link to accept; it works once, for ${invite.to}, within ${INVITE_DAYS} days:`,
  ];
  const ignore = "Not expecting this? Ignore it: nothing happens unless you accept.";
  return {
    to: invite.to,
    subject: `${invite.inviter} invited you to "${invite.workspaceName}" on LinkPrev`,
    text: `${lines.join("\n")}\n\n${invite.url}\n\n${ignore}\n`,
    html: `<p>${lines.map(escapeHtml).join("<br>")}</p><p><a href="${escapeHtml(invite.url)}">Accept the invite</a></p><p>${escapeHtml(invite.url)}</p><p>${escapeHtml(ignore)}</p>`,
  };
}
