// The cross-site rule (src/http/csrf.ts) as browsers exercise it: the inspect page's report form posts with
// `Origin: null` (its Referrer-Policy is no-referrer) and Sec-Fetch-Site: same-origin, and goes through; a post
// from another site, or an opaque origin, or "null" from a browser that sends no Sec-Fetch-Site, is refused, and a
// form sees a page saying so, not JSON.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { seedLink, seedSession, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer();
  const user = await seedUser(server.sql, { userSlug: "ana" });
  await seedLink(server.sql, user.id, { linkSlug: "sale" });
  cookie = `lp_session=${(await seedSession(server.sql, user.id)).token}`;
});
afterAll(() => server.close());

/** What Chromium sends for a form submitted on a page: a navigation that accepts HTML. */
const formHeaders = (headers: Record<string, string>) => ({
  "content-type": "application/x-www-form-urlencoded",
  accept: "text/html,application/xhtml+xml,*/*;q=0.8",
  "sec-fetch-mode": "navigate",
  ...headers,
});
const report = (headers: Record<string, string>) =>
  fetch(`${server.url}/api/reports`, {
    method: "POST",
    redirect: "manual",
    headers: formHeaders(headers),
    body: new URLSearchParams({ address: "ana/sale", reason: "spam", details: "" }),
  });
const reportCount = async () =>
  (await server.sql.get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM abuse_reports"))!.n;

describe("the inspect page's report form", () => {
  test("the page says no-referrer, and its form posted as Chromium does (Origin: null, same-origin) is taken: back to the page", async () => {
    const inspect = await fetch(`${server.url}/go/ana/sale+`);
    expect(inspect.headers.get("referrer-policy")).toBe("no-referrer");
    const sent = await report({ origin: "null", "sec-fetch-site": "same-origin" });
    expect(sent.status).toBe(303);
    expect(sent.headers.get("location")).toContain("/go/ana/sale+?reported=1");
  });

  test("Origin: null is refused from another site, from an opaque origin's frame, and without Sec-Fetch-Site; nothing is stored", async () => {
    const before = await reportCount();
    const refusedHeaders: Record<string, string>[] = [
      { origin: "null", "sec-fetch-site": "cross-site" },
      { origin: "null", "sec-fetch-site": "same-site" },
      { origin: "null" },
      { origin: "https://evil.example" },
      { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    ];
    for (const headers of refusedHeaders) {
      const refused = await report(headers);
      expect(refused.status).toBe(403);
      // A form's refusal is a page a person can read, in the site's frame.
      expect(refused.headers.get("content-type")).toContain("text/html");
      const html = await refused.text();
      expect(html).toContain("Cross-site request refused");
      expect(html).toContain("<footer");
    }
    expect(await reportCount()).toBe(before);
  });

  test("a script's refused call still reads JSON", async () => {
    const refused = await fetch(`${server.url}/api/reports`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://evil.example" },
      body: JSON.stringify({ address: "ana/sale", reason: "spam" }),
    });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toContain("Cross-site request refused");
  });
});

describe("writes with the session cookie", () => {
  const consent = (headers: Record<string, string>) =>
    fetch(`${server.url}/api/auth/consent`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json", ...headers },
      body: JSON.stringify({ termsAccepted: true, privacyAccepted: true }),
    });

  test("Origin: null goes through only when the browser says same-origin", async () => {
    expect((await consent({ origin: "null", "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await consent({ origin: "null" })).status).toBe(403);
    expect((await consent({})).status).toBe(403);
    expect((await consent({ origin: "https://evil.example", "sec-fetch-site": "same-origin" })).status).toBe(403);
    expect((await consent({ origin: "null", "sec-fetch-site": "same-origin" })).status).toBe(200);
    expect((await consent({ origin: server.url, "sec-fetch-site": "same-origin" })).status).toBe(200);
  });
});
