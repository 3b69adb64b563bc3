// Shared by the browser tests: where the fakes are, signing in through the fake Google, console watching.
import { expect, type Page } from "@playwright/test";

export type Fakes = { google: string; stripe: string; vies: string; dataDir: string };

export async function fakes(): Promise<Fakes> {
  return (await (await fetch("http://127.0.0.1:3101/")).json()) as Fakes;
}

let accounts = 0;

/** Signs in through the real /api/auth/google flow as a new (or the given) Google account. */
export async function signIn(page: Page, profile: Partial<{ email: string; given_name: string; family_name: string; picture: string }> = {}) {
  const n = ++accounts;
  const who = { sub: `e2e-${Date.now()}-${n}`, email: `e2e${Date.now()}${n}@example.com`, email_verified: true, given_name: "Eva", family_name: "Ribeiro", ...profile };
  const { google } = await fakes();
  await fetch(`${google}/__test/sign-in-as`, { method: "POST", body: JSON.stringify(who) });
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

/** Waits until every island on the page has hydrated its chunk. */
export async function hydrated(page: Page) {
  await page.waitForLoadState("networkidle");
}
