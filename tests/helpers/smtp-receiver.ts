// A mail server as an operator's would be: a real SMTP server (npm `smtp-server`) on loopback that asks for the
// credentials in SMTP_URL and parses every message it accepts with `mailparser`, not with LinkPrev's own code.
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export type ReceivedMail = { from: string; to: string[]; subject: string; text: string; html: string };

export type SmtpReceiver = {
  /** SMTP_URL for LinkPrev: this server, with the user and password it accepts. */
  url: string;
  received: ReceivedMail[];
  /** The first message to `address` not yet taken (received already or still to come); fails after `timeoutMs`. */
  mailTo(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

const USER = "linkprev";
const PASSWORD = "smtp-test-secret";

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  type Waiter = { address: string; resolve: (mail: ReceivedMail) => void; timer?: ReturnType<typeof setTimeout> };
  const waiting: Waiter[] = [];
  const offer = (mail: ReceivedMail) => {
    const at = waiting.findIndex((w) => mail.to.includes(w.address));
    if (at === -1) return;
    taken.add(mail);
    const [waiter] = waiting.splice(at, 1);
    clearTimeout(waiter!.timer);
    waiter!.resolve(mail);
  };
  const server = new SMTPServer({
    // Plain SMTP on loopback, as a relay on the same host would be: no STARTTLS, credentials still required.
    secure: false,
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    authMethods: ["PLAIN", "LOGIN"],
    onAuth: (auth, _session, callback) =>
      auth.username === USER && auth.password === PASSWORD
        ? callback(null, { user: USER })
        : callback(new Error("Invalid username or password")),
    onData: (stream, session, callback) => {
      simpleParser(stream)
        .then((parsed) => {
          const mail: ReceivedMail = {
            from: parsed.from?.text ?? "",
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          };
          received.push(mail);
          offer(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`,
    received,
    mailTo: (address, timeoutMs = 10_000) => {
      const wanted = address.toLowerCase();
      const ready = received.find((mail) => !taken.has(mail) && mail.to.includes(wanted));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve, reject) => {
        const entry: Waiter = { address: wanted, resolve };
        waiting.push(entry);
        entry.timer = setTimeout(() => {
          const at = waiting.indexOf(entry);
          if (at === -1) return;
          waiting.splice(at, 1);
          reject(new Error(`no mail to ${wanted} within ${timeoutMs} ms (received: ${received.length})`));
        }, timeoutMs);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
