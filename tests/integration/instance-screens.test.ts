// Screens that tell the truth about the instance: without Google the calls to action name the one-time sign-in
// link; without Stripe no plan button that could only fail, and a note that every account has enterprise limits.
// With both configured the spec's words stay (tests/integration/pages.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BILLING_OFF_NOTE, LINK_SIGN_IN_LABEL, LINK_SIGN_IN_NOTE } from "../../src/client/instance.ts";
import { BILLING_ON, GOOGLE_ON, seedSession, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

const PLAN_BUTTON = /<button[^>]*>(Start now|Subscribe|Current Plan|Upgrade|Downgrade)<\/button>/;

async function page(server: TestServer, path: string, cookie?: string): Promise<string> {
  const response = await fetch(`${server.url}${path}`, { headers: cookie ? { cookie } : {}, redirect: "manual" });
  expect(response.status).toBe(200);
  return response.text();
}

async function signedIn(server: TestServer): Promise<string> {
  const user = await seedUser(server.sql, { consent: true });
  return `lp_session=${(await seedSession(server.sql, user.id)).token}`;
}

describe("neither Google nor Stripe configured", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("the landing page and top bar offer the one-time link, not Google", async () => {
    const html = await page(server, "/");
    expect(html).not.toContain("Get Started with Google");
    expect(html).toContain(`>${LINK_SIGN_IN_LABEL}</a>`);
    expect(html).toContain(LINK_SIGN_IN_NOTE);
    expect(html).not.toMatch(/>Access<\/a>/);
    expect(html).toMatch(/<a href="\/api\/auth\/google"[^>]*>Sign in<\/a>/);
  });

  test("pricing, signed out and signed in, says billing is off and has no plan button", async () => {
    for (const cookie of [undefined, await signedIn(server)]) {
      const html = await page(server, "/pricing", cookie);
      expect(html).toContain(BILLING_OFF_NOTE);
      expect(html).not.toMatch(PLAN_BUTTON);
      expect(html).not.toContain("All prices exclude VAT.");
      expect(html).toContain("€5");
    }
  });

  test("the subscription tab shows enterprise limits and the note, not an empty Active box", async () => {
    const html = await page(server, "/admin?tab=subscription", await signedIn(server));
    expect(html).toContain("Enterprise limits");
    expect(html).toContain(BILLING_OFF_NOTE);
    expect(html).not.toContain(">Active<");
    expect(html).not.toContain("Cancel subscription");
  });
});

describe("Google and Stripe configured", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...GOOGLE_ON, ...BILLING_ON });
  });
  afterAll(() => server.close());

  test("the spec's words, with no billing-off note", async () => {
    const landing = await page(server, "/");
    expect(landing).toContain("Get Started with Google");
    expect(landing).toMatch(/>Access<\/a>/);
    expect(landing).not.toContain(LINK_SIGN_IN_LABEL);
    const pricing = await page(server, "/pricing", await signedIn(server));
    expect(pricing).not.toContain(BILLING_OFF_NOTE);
    expect(pricing).toMatch(/<button[^>]*>Subscribe<\/button>/);
  });
});
