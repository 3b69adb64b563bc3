// Outgoing mail over SMTP (SMTP_URL, docs/configuration.md): sign-in links and workspace invites. Built once per
// thread by src/services.ts; without SMTP_URL there is no mailer and nothing is sent.
import nodemailer from "nodemailer";
import type { Config } from "../config/config.ts";
import type { Logger } from "../observability/log.ts";

/** One message, as plain text and as HTML whose every interpolated value the composer has escaped. */
export type MailMessage = { to: string; subject: string; text: string; html: string };

export type Mailer = {
  /** Resolves once the SMTP server accepted the message; rejects when it refused or could not be reached. */
  send(message: MailMessage): Promise<void>;
};

export function smtpMailer(settings: NonNullable<Config["mail"]>): Mailer {
  // A connection per message (no pool): mail here is rare, and an idle pooled connection would keep a thread busy.
  const transport = nodemailer.createTransport(settings.smtpUrl);
  return {
    send: async (message) => {
      await transport.sendMail({ from: settings.from, ...message });
    },
  };
}

/**
 * Sends without making the request wait: a sign-in request must answer alike, and as fast, whether or not a
 * message went out. A failure is logged (never the message's link: it signs someone in).
 */
export function sendInBackground(mailer: Mailer, message: MailMessage, log: Logger, what: string): void {
  mailer.send(message).catch((error: unknown) => {
    log.error(`Sending ${what} by e-mail failed`, error instanceof Error ? new Error(error.message) : error);
  });
}
