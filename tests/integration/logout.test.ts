// Signing out: GET /api/auth/logout signs out only on a navigation from our own pages (or the address bar, or a
// client that does not say); from another site it asks first, with a button that posts. Over real HTTP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hashSecret } from "../../src/auth/tokens.ts";
import { seedSession, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let userId = 0;

beforeAll(async () => {
  server = await startTestServer();
  userId = (await seedUser(server.sql)).id;
});
afterAll(() => server.close());

/** A fresh session of the user: its cookie and a check of whether it still signs in. */
async function session() {
  const { token } = await seedSession(server.sql, userId);
  const cookie = `lp_session=${token}`;
  return {
    cookie,
    signedIn: async () => (await fetch(`${server.url}/api/auth/user`, { headers: { cookie } })).status === 200,
    rowExists: async () =>
      (await server.sql.get("SELECT 1 AS one FROM sessions WHERE sid = ?", hashSecret(token))) !== null,
  };
}

const clearsCookie = (response: Response) =>
  response.headers
    .getSetCookie()
    .some((header) => header.startsWith("lp_session=") && /max-age=0|expires=Thu, 01 Jan 1970/i.test(header));

describe("GET /api/auth/logout from another site asks first", () => {
  for (const site of ["cross-site", "same-site"]) {
    test(`Sec-Fetch-Site: ${site} keeps the session and shows "Sign out?" with a button that posts`, async () => {
      const you = await session();
      const response = await fetch(`${server.url}/api/auth/logout`, {
        headers: { cookie: you.cookie, "sec-fetch-site": site, "sec-fetch-mode": "navigate" },
        redirect: "manual",
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toStartWith("text/html");
      expect(clearsCookie(response)).toBe(false);
      const html = await response.text();
      expect(html).toContain("Sign out?");
      expect(html).toMatch(/<form action="\/api\/auth\/logout" method="post">/);
      expect(html).toMatch(/<button[^>]*type="submit"[^>]*>\s*Sign out\s*<\/button>/);
      expect(html).toContain('href="/admin"');
      expect(await you.signedIn()).toBe(true);
      expect(await you.rowExists()).toBe(true);
    });
  }

  test("the page's button signs out", async () => {
    const you = await session();
    const page = await (
      await fetch(`${server.url}/api/auth/logout`, { headers: { cookie: you.cookie, "sec-fetch-site": "cross-site" } })
    ).text();
    const action = page.match(/<form action="([^"]+)" method="post">/)![1]!;
    // What the browser sends for the form on our own page.
    const response = await fetch(`${server.url}${action}`, {
      method: "POST",
      headers: { cookie: you.cookie, origin: server.url, "sec-fetch-site": "same-origin" },
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(clearsCookie(response)).toBe(true);
    expect(await you.signedIn()).toBe(false);
    expect(await you.rowExists()).toBe(false);
  });
});

describe("GET /api/auth/logout from our own pages signs out", () => {
  const cases: Array<[string, Record<string, string>]> = [
    ["Sec-Fetch-Site: same-origin", { "sec-fetch-site": "same-origin" }],
    ["Sec-Fetch-Site: none (address bar, bookmark)", { "sec-fetch-site": "none" }],
    ["no Sec-Fetch-Site (non-browser clients, older browsers)", {}],
  ];
  for (const [name, headers] of cases) {
    test(name, async () => {
      const you = await session();
      const response = await fetch(`${server.url}/api/auth/logout`, {
        headers: { cookie: you.cookie, ...headers },
        redirect: "manual",
      });
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/");
      expect(clearsCookie(response)).toBe(true);
      expect(await you.signedIn()).toBe(false);
      expect(await you.rowExists()).toBe(false);
    });
  }
});

describe("POST /api/auth/logout", () => {
  test("from another site it is refused like every cookie write, and the session stays", async () => {
    const you = await session();
    const response = await fetch(`${server.url}/api/auth/logout`, {
      method: "POST",
      headers: { cookie: you.cookie, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      redirect: "manual",
    });
    expect(response.status).toBe(403);
    expect(await you.signedIn()).toBe(true);
  });

  test("signed out already: a harmless 303 home", async () => {
    const response = await fetch(`${server.url}/api/auth/logout`, {
      method: "POST",
      headers: { origin: server.url, "sec-fetch-site": "same-origin" },
      redirect: "manual",
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
  });
});
