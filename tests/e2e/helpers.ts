// Shared by the browser tests: where the fakes are, signing in through the fake Google, console watching.
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";
import { crc32, deflateSync } from "node:zlib";
import { ACCOUNT_COOKIE } from "../fakes/google.ts";

/** `bare`: a second instance with neither Google nor Stripe configured (tests/e2e/server.ts). */
export type Fakes = {
  google: string;
  stripe: string;
  vies: string;
  web: string;
  facebook: string;
  dataDir: string;
  bare: string;
};

/** Where the fakes of this run are: tests/e2e/server.ts answers on the port playwright.config.ts chose. */
export async function fakes(): Promise<Fakes> {
  const infoPort = process.env.LINKPREV_E2E_INFO_PORT;
  if (!infoPort)
    throw new Error("LINKPREV_E2E_INFO_PORT is not set: run the browser tests through playwright.config.ts");
  return (await (await fetch(`http://127.0.0.1:${infoPort}/`)).json()) as Fakes;
}

let accounts = 0;

/** The fake Google account this page's browser signs in as next, whatever other workers sign in as meanwhile. */
export async function useGoogleAccount(page: Page, who: { sub: string; email: string; email_verified: boolean }) {
  const { google } = await fakes();
  await fetch(`${google}/__test/sign-in-as`, { method: "POST", body: JSON.stringify(who) });
  await page.context().addCookies([{ name: ACCOUNT_COOKIE, value: who.sub, url: google }]);
}

/** Signs in through the real /api/auth/google flow as a new (or the given) Google account. */
export async function signIn(
  page: Page,
  profile: Partial<{ email: string; given_name: string; family_name: string; picture: string }> = {},
) {
  // The worker's process id keeps accounts of parallel workers apart.
  const n = `${process.pid}-${Date.now()}-${++accounts}`;
  const who = {
    sub: `e2e-${n}`,
    email: `e2e-${n}@example.com`,
    email_verified: true,
    given_name: "Eva",
    family_name: "Ribeiro",
    ...profile,
  };
  await useGoogleAccount(page, who);
  await page.goto("/api/auth/google");
  await expect.poll(async () => (await page.context().cookies()).some((c) => c.name === "lp_session")).toBe(true);
  return who;
}

/** Collects console errors and uncaught exceptions of a page. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  page.on("pageerror", (error) => errors.push(String(error)));
  return errors;
}

/** Raises a toast the way islands do (src/client/toast.ts). */
export async function raiseToast(page: Page, title: string, description = "") {
  await page.evaluate(
    ([t, d]) => {
      const w = window as unknown as { __linkprevToasts?: unknown[] };
      (w.__linkprevToasts ??= []).push({ title: t, description: d });
      window.dispatchEvent(new CustomEvent("linkprev:toast"));
    },
    [title, description],
  );
}

/**
 * axe-core over the page, in its legacy mode: axe.run in the page (and in each same-origin frame) rather than
 * partial runs finished in a new blank page. The results are the same, rule by rule and element by element (compared
 * on the public pages and the API reference), and an audit takes about a third less time.
 */
export function axeOf(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).setLegacyMode();
}

/**
 * Waits until the page has loaded, every island on it has hydrated its chunk (islands/client.ts marks each root
 * `data-hydrated`), and the effects that hydration scheduled have run. Waiting for "networkidle" instead cost 500 ms
 * of quiet every time.
 */
export async function hydrated(page: Page) {
  await page.waitForLoadState("load");
  await page.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
  // Preact runs effects after the next frame (preact/hooks: requestAnimationFrame, then a timeout).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
}

/** A signed-in user who has already consented to the terms and privacy policy (so no consent dialog). */
export async function consentedUser(page: Page, profile: Parameters<typeof signIn>[1] = {}) {
  const who = await signIn(page, profile);
  const origin = new URL(page.url()).origin;
  const consent = await page.request.post("/api/auth/consent", {
    headers: { origin },
    data: { termsAccepted: true, privacyAccepted: true },
  });
  expect(consent.ok()).toBe(true);
  return who;
}

/**
 * Signs in on the bare instance with a one-time link, as its owner would hand one out (`owner`: as the owner, its
 * first account; else as a new account), then accepts the terms.
 */
export async function signInOnBare(page: Page, bare: string, who: "new" | "owner" = "new") {
  const infoPort = process.env.LINKPREV_E2E_INFO_PORT;
  const link = await (
    await fetch(`http://127.0.0.1:${infoPort}/${who === "owner" ? "bare-owner-login-link" : "bare-login-link"}`)
  ).text();
  await page.goto(link);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login/"));
  const consent = await page.request.post(`${bare}/api/auth/consent`, {
    headers: { origin: bare },
    data: { termsAccepted: true, privacyAccepted: true },
  });
  expect(consent.ok()).toBe(true);
}

/** A signed-in user who has consented and holds `plan`, subscribed through the real checkout flow. */
export async function subscribedUser(
  page: Page,
  plan: "basic" | "pro" | "enterprise",
  profile: Parameters<typeof signIn>[1] = {},
) {
  const who = await consentedUser(page, profile);
  const origin = new URL(page.url()).origin;
  const checkout = await page.request.post("/api/subscriptions", { headers: { origin }, data: { planId: plan } });
  expect(checkout.ok()).toBe(true);
  await page.goto((await checkout.json()).url);
  await expect(page.getByTestId("plan-name")).toHaveText(plan[0]!.toUpperCase() + plan.slice(1));
  return who;
}

/** A link made through the API by the page's signed-in user (same origin, as the dashboard's form sends it). */
export async function createLink(
  page: Page,
  data: { title: string; description: string; targetUrl: string; customLinkSlug: string },
): Promise<{ id: number; currentShortUrl: string }> {
  const made = await page.request.post("/api/links", { headers: { origin: new URL(page.url()).origin }, data });
  expect(made.ok()).toBe(true);
  return made.json();
}

/** A small real PNG (solid colour), for uploads. */
export function pngBytes(width = 64, height = 48): Buffer {
  const row = Buffer.alloc(width * 3 + 1);
  for (let x = 0; x < width; x++) row.set([200, 80, 40], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
