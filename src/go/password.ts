// A link behind a password: the small form people get, and the cookie that remembers a right answer for 24 hours
// on that link's path only. The cookie is an HMAC keyed with the link's password hash, which never leaves the
// server: it cannot be forged, it works on every node, and a new password ends every cookie of the old one.
import { createHmac, timingSafeEqual } from "node:crypto";
import { escapeHtml } from "../http/escape.ts";
import { page } from "../safety/page.ts";

export const PASSWORD_COOKIE_MS = 24 * 60 * 60 * 1000;

const cookieName = (linkId: number) => `lp_pass_${linkId}`;
const sign = (passwordHash: string, linkId: number, until: number) =>
  createHmac("sha256", passwordHash).update(`${linkId}:${until}`).digest("base64url");

/** The Set-Cookie header for a right answer, scoped to the link's path (its versions included). */
export function passwordCookie(
  passwordHash: string,
  linkId: number,
  path: string,
  now: number,
  secure: boolean,
): string {
  const until = now + PASSWORD_COOKIE_MS;
  const value = `${until}.${sign(passwordHash, linkId, until)}`;
  return `${cookieName(linkId)}=${value}; Path=${path}; Max-Age=${PASSWORD_COOKIE_MS / 1000}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Whether the request carries a valid, unexpired cookie for this link and its current password. */
export function hasPasswordCookie(
  cookieHeader: string | null,
  passwordHash: string,
  linkId: number,
  now: number,
): boolean {
  if (!cookieHeader) return false;
  const prefix = `${cookieName(linkId)}=`;
  for (const part of cookieHeader.split(";")) {
    const pair = part.trim();
    if (!pair.startsWith(prefix)) continue;
    const [untilText, signature] = pair.slice(prefix.length).split(".", 2);
    const until = Number(untilText);
    if (!signature || !Number.isSafeInteger(until) || until <= now) continue;
    const expected = Buffer.from(sign(passwordHash, linkId, until));
    const given = Buffer.from(signature);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return false;
}

export type PasswordFormState = "ask" | "wrong" | "slow-down" | "locked";

const waitText = (seconds: number) =>
  seconds <= 60
    ? "a minute"
    : seconds < 5400
      ? `${Math.ceil(seconds / 60)} minutes`
      : `${Math.ceil(seconds / 3600)} hours`;

function message(state: PasswordFormState, waitSeconds: number): string {
  const alert = (text: string) => `<p class="error" role="alert">${text}</p>`;
  if (state === "wrong") return alert("That password is not right.");
  if (state === "slow-down")
    return alert(`Too many tries from your address. Wait ${waitText(waitSeconds)} and try again.`);
  if (state === "locked")
    return alert(`Too many wrong passwords were tried on this link. It takes tries again in ${waitText(waitSeconds)}.`);
  return "";
}

/** The small page people get: no script, posts back to the same address. */
export function passwordPage(title: string, state: PasswordFormState, waitSeconds = 0): string {
  return page(
    "<title>Password required</title>",
    `<h1>Password required</h1><p>The owner of “${escapeHtml(title)}” protected this link with a password.</p>${message(state, waitSeconds)}
<form method="post"><label for="password">Password</label><input id="password" name="password" type="password" required autofocus autocomplete="current-password"><button type="submit">Continue</button></form>`,
  );
}
