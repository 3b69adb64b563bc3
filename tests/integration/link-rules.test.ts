// Link rules on /go (src/go/rule-answer.ts), over real HTTP on SQLite and PostgreSQL: expiry by time and by people
// counted, a password, targets by device and by country, and crawlers that get the owner's card through all of it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createCountryLookup } from "../../src/go/country.ts";
import { TestClock } from "../helpers/clock.ts";
import {
  apiClient,
  crawlerAgents,
  seedSession,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let owner: ApiClient;
const clock = new TestClock(Date.parse("2026-11-25T12:00:00Z"));
beforeAll(async () => {
  // Behind a trusted proxy: the tests name the visitor's address in X-Forwarded-For.
  server = await startTestServer({ PUBLIC_URL: "https://lp.example", TRUST_PROXY: "true" }, clock);
  owner = await apiClient(server, "pro", "ruler");
});
afterAll(() => server.close());

const facebook = crawlerAgents.crawlers.facebook![0]!;
const people = crawlerAgents.people as Record<string, string>;
const browser = people["chrome-windows"]!;
// Addresses inside ranges of the packaged database (checked below): Strato's 85.214.0.0/15 in Germany, Google's 8.8.8.0/24 in the US.
const GERMAN = "85.214.0.1";
const AMERICAN = "8.8.8.8";

const card = { targetUrl: "https://example.com/home", title: "Campaign", description: "The campaign page" };
let counter = 0;
async function createLink(rules: Record<string, unknown>) {
  const response = await owner.call("/api/links", {
    method: "POST",
    json: { ...card, customLinkSlug: `r${++counter}`, ...rules },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; linkSlug: string; [key: string]: unknown };
}
const go = (slug: string, userAgent = browser, init: RequestInit & { address?: string } = {}) =>
  fetch(`${server.url}/go/ruler/${slug}`, {
    redirect: "manual",
    ...init,
    headers: { "user-agent": userAgent, "x-forwarded-for": init.address ?? "203.0.113.9", ...init.headers },
  });
const humanViews = async (linkId: number) => {
  await server.flushViews();
  return (await server.sql.get<{ n: number }>(
    "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS n FROM view_rollups WHERE link_id = ?",
    linkId,
  ))!.n;
};
const ogTitle = (html: string) => /<meta property="og:title" content="([^"]*)">/.exec(html)?.[1] ?? null;

describe("expiry", () => {
  test("by time: people go to expiredUrl (or a 410 page) from expiresAt on; crawlers get the card until then, then a neutral expired card", async () => {
    const expiresAt = new Date(clock.now() + 60_000).toISOString();
    const withPage = await createLink({ expiresAt });
    const withAddress = await createLink({ expiresAt, expiredUrl: "https://example.com/over" });
    expect(withPage.expiresAt).toBe(expiresAt);
    expect((await go(withPage.linkSlug)).headers.get("location")).toBe("https://example.com/home");
    expect(ogTitle(await (await go(withPage.linkSlug, facebook)).text())).toBe("Campaign");

    clock.advance(60_000);
    const expired = await go(withPage.linkSlug);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This link has expired");
    expect((await go(withAddress.linkSlug)).headers.get("location")).toBe("https://example.com/over");
    const expiredCard = await (await go(withPage.linkSlug, facebook)).text();
    expect(ogTitle(expiredCard)).toBe("This link has expired");
    expect(expiredCard).not.toContain("example.com/home");
  });

  test("by clicks, exactly, under concurrent visits: with maxClicks 5 and 20 people at once, 5 are sent on and 15 find it expired", async () => {
    const link = await createLink({ maxClicks: 5 });
    expect(link.maxClicks).toBe(5);
    // Crawlers, other bots (sent on like people: an uptime monitor, curl) and HEAD requests do not take a click.
    for (let i = 0; i < 3; i++) expect((await go(link.linkSlug, facebook)).status).toBe(200);
    for (const bot of ["UptimeRobot/2.0 (http://www.uptimerobot.com/)", "curl/8.5.0"])
      for (let i = 0; i < 3; i++) expect((await go(link.linkSlug, bot)).status).toBe(302);
    expect((await go(link.linkSlug, browser, { method: "HEAD" })).status).toBe(302);
    const answers = await Promise.all(Array.from({ length: 20 }, () => go(link.linkSlug)));
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 302)).toHaveLength(5);
    expect(statuses.filter((status) => status === 410)).toHaveLength(15);
    expect((await go(link.linkSlug)).status).toBe(410);
    expect(await humanViews(link.id)).toBe(5);
    // The owner raises the cap: the sixth person gets through, the seventh does not.
    const raised = await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
      method: "PUT",
      json: { ...card, maxClicks: 6 },
    });
    expect(raised.status).toBe(200);
    expect((await go(link.linkSlug)).status).toBe(302);
    expect((await go(link.linkSlug)).status).toBe(410);
  });
});

describe("password", () => {
  test("people get the form (no view counted); a wrong answer is refused; a right one sets a cookie for the link's path and redirects", async () => {
    const link = await createLink({ password: "open sesame" });
    expect(link.hasPassword).toBe(true);
    expect(JSON.stringify(link)).not.toContain("open sesame");
    expect(JSON.stringify(link)).not.toContain("argon2");

    const form = await go(link.linkSlug);
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('<form method="post">');
    // Crawlers get the owner's card: the owner chose to share it.
    expect(ogTitle(await (await go(link.linkSlug, facebook)).text())).toBe("Campaign");

    const wrong = await go(link.linkSlug, browser, {
      method: "POST",
      body: new URLSearchParams({ password: "guess" }),
      address: "198.51.100.1",
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That password is not right.");
    expect(await humanViews(link.id)).toBe(0);

    const right = await go(link.linkSlug, browser, {
      method: "POST",
      body: new URLSearchParams({ password: "open sesame" }),
      address: "198.51.100.1",
    });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe(`/go/ruler/${link.linkSlug}`);
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toContain(`Path=/go/ruler/${link.linkSlug};`);
    expect(cookie).toContain("Max-Age=86400");
    expect(cookie).toContain("HttpOnly");
    const pair = cookie.split(";")[0]!;

    const through = await go(link.linkSlug, browser, { headers: { cookie: pair } });
    expect(through.status).toBe(302);
    expect(through.headers.get("location")).toBe("https://example.com/home");
    expect(await humanViews(link.id)).toBe(1);

    // The cookie is this link's: another protected link asks again.
    const other = await createLink({ password: "open sesame" });
    expect((await go(other.linkSlug, browser, { headers: { cookie: pair } })).status).toBe(200);
    // It lasts 24 hours.
    clock.advance(24 * 60 * 60 * 1000);
    expect((await go(link.linkSlug, browser, { headers: { cookie: pair } })).status).toBe(200);
  });

  test("wrong answers are rate-limited per address", async () => {
    const link = await createLink({ password: "right" });
    const attempt = (address: string, password = "wrong") =>
      go(link.linkSlug, browser, { method: "POST", body: new URLSearchParams({ password }), address });
    for (let i = 0; i < 10; i++) expect((await attempt("198.51.100.7")).status).toBe(401);
    const limited = await attempt("198.51.100.7", "right");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("set-cookie")).toBeNull();
    // Another address is not slowed down.
    expect((await attempt("198.51.100.8", "right")).status).toBe(303);
  });
});

describe("targets by device and country", () => {
  test("device rules, first match wins, with real User-Agents; crawlers get the card", async () => {
    const link = await createLink({
      rules: [
        { when: { device: "ios" }, targetUrl: "https://apps.apple.com/app/id1" },
        { when: { device: "android" }, targetUrl: "https://play.google.com/store/apps/details?id=x" },
      ],
    });
    expect(link.rules).toEqual([
      { when: { device: "ios" }, targetUrl: "https://apps.apple.com/app/id1" },
      { when: { device: "android" }, targetUrl: "https://play.google.com/store/apps/details?id=x" },
    ]);
    const where = async (agent: string) => (await go(link.linkSlug, agent)).headers.get("location");
    expect(await where(people["safari-iphone"]!)).toBe("https://apps.apple.com/app/id1");
    expect(await where(people["facebook-app-iphone"]!)).toBe("https://apps.apple.com/app/id1");
    expect(await where(people["chrome-android"]!)).toBe("https://play.google.com/store/apps/details?id=x");
    expect(await where(people["chrome-windows"]!)).toBe("https://example.com/home");
    expect(await where(people["safari-mac"]!)).toBe("https://example.com/home");
    const crawled = await go(link.linkSlug, facebook);
    expect(crawled.status).toBe(200);
    expect(ogTitle(await crawled.text())).toBe("Campaign");
  });

  test("country rules from the packaged database, by the client's address", async () => {
    const countryOf = createCountryLookup();
    expect(countryOf(GERMAN)).toBe("DE");
    expect(countryOf(AMERICAN)).toBe("US");
    const link = await createLink({ rules: [{ when: { country: "de" }, targetUrl: "https://example.com/de" }] });
    expect(link.rules).toEqual([{ when: { country: "DE" }, targetUrl: "https://example.com/de" }]);
    expect((await go(link.linkSlug, browser, { address: GERMAN })).headers.get("location")).toBe(
      "https://example.com/de",
    );
    expect((await go(link.linkSlug, browser, { address: AMERICAN })).headers.get("location")).toBe(
      "https://example.com/home",
    );
    expect(ogTitle(await (await go(link.linkSlug, facebook, { address: GERMAN })).text())).toBe("Campaign");
  });
});

describe("the API", () => {
  test("validation errors name the field; rules are kept by an edit that leaves them out and removed by null", async () => {
    const bad = async (json: Record<string, unknown>) => {
      const response = await owner.call("/api/links", { method: "POST", json: { ...card, ...json } });
      expect(response.status).toBe(400);
      return ((await response.json()) as { message: string }).message;
    };
    expect(await bad({ expiresAt: "tomorrow" })).toStartWith("expiresAt: ");
    expect(await bad({ maxClicks: 0 })).toBe("maxClicks: must be at least 1");
    expect(await bad({ expiredUrl: "ftp://x" })).toStartWith("expiredUrl: ");
    expect(await bad({ rules: [{ when: { device: "fridge" }, targetUrl: "https://example.com" }] })).toStartWith(
      "rules.0.when",
    );
    expect(await bad({ rules: [{ when: { country: "DE" }, targetUrl: "https://lp.example/go/ruler/x" }] })).toStartWith(
      "rules.0.targetUrl: ",
    );

    const link = await createLink({ maxClicks: 3, password: "p" });
    const edited = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, { method: "PUT", json: { ...card, title: "Renamed" } })
    ).json();
    expect(edited).toMatchObject({
      maxClicks: 3,
      hasPassword: true,
      health: { status: "unchecked", checkedAt: null, httpStatus: null, finalUrl: null },
    });
    const cleared = await (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
        method: "PUT",
        json: { ...card, maxClicks: null, password: null },
      })
    ).json();
    expect(cleared).toMatchObject({ maxClicks: null, hasPassword: false, expiresAt: null, rules: [] });
    expect((await go(link.linkSlug)).status).toBe(302);
  });
});

describe("the dashboard and the editor", () => {
  test("each link's row shows its rules and a broken target (naming the rule whose target it is); the editor page holds the rule fields and the UTM builder", async () => {
    const link = await createLink({
      expiresAt: new Date(clock.now() + 86_400_000).toISOString(),
      maxClicks: 250,
      password: "p",
      rules: [{ when: { device: "ios" }, targetUrl: "https://apps.apple.com/app/id1" }],
    });
    await server.sql.run(
      "INSERT INTO link_rules (link_id, health_status, health_http_status, health_failures) VALUES (?, 'broken', 404, 2) ON CONFLICT (link_id) DO UPDATE SET health_status = 'broken', health_http_status = 404, health_failed_url = ?",
      link.id,
      "https://apps.apple.com/app/id1",
    );
    const cookie = `lp_session=${(await seedSession(server.sql, owner.userId)).token}`;
    const html = await (await fetch(`${server.url}/admin`, { headers: { cookie } })).text();
    const row = html.slice(html.indexOf(`data-slug="${link.linkSlug}"`));
    const badges = row.slice(
      row.indexOf('data-testid="rule-badges"'),
      row.indexOf("</p>", row.indexOf('data-testid="rule-badges"')),
    );
    expect(badges).toContain("Target broken: HTTP 404 at rule device ios → https://apps.apple.com/app/id1");
    expect(badges).toContain("Expires ");
    expect(badges).toContain("0 of 250 visits used");
    expect(badges).toContain("Password");
    expect(badges).toContain("1 target rule");
    const editor = await (
      await fetch(`${server.url}/admin/link/edit/${link.linkSlug}`, { headers: { cookie } })
    ).text();
    for (const id of ["expiresAt", "maxClicks", "expiredUrl", "password", "utm_source", "utm_campaign"])
      expect(editor).toContain(`id="${id}"`);
    expect(editor).not.toContain("argon2");
  });
});

test("deleting the account removes its links' rules and health", async () => {
  const leaving = await apiClient(server, null, "leaving");
  const response = await leaving.call("/api/links", { method: "POST", json: { ...card, maxClicks: 3, password: "p" } });
  const { id } = (await response.json()) as { id: number };
  const rows = async () =>
    (await server.sql.get<{ n: number }>(
      "SELECT CAST(count(*) AS INTEGER) AS n FROM link_rules WHERE link_id = ?",
      id,
    ))!.n;
  expect(await rows()).toBe(1);
  const { email } = (await server.sql.get<{ email: string }>("SELECT email FROM users WHERE id = ?", leaving.userId))!;
  expect((await leaving.call("/api/account", { method: "DELETE", json: { confirmEmail: email } })).status).toBe(204);
  expect(await rows()).toBe(0);
});
