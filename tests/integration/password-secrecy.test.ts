// A link behind a password (src/rules/): its destinations (target, rule targets, expired address) reach no one who
// has not given the password, whatever they fetch; and the limits on guessing it count the guesser, not the address
// they use: an IPv6 client by its /64, the client behind our proxy by the right end of X-Forwarded-For, and every
// guesser of one link together by that link's budget.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { linkChange } from "../../src/db/change.ts";
import { TestClock } from "../helpers/clock.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: ApiClient;
const clock = new TestClock(Date.parse("2026-11-25T12:00:00Z"));
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://lp.example", TRUST_PROXY: "true" }, clock);
  owner = await apiClient(server, "pro", "keeper");
});
afterAll(() => server.close());

const browser = crawlerAgents.people["chrome-windows"]!;
const facebook = crawlerAgents.crawlers.facebook![0]!;
const CURL = "curl/8.5.0";
const SECRETS = [
  "https://secret.example/plans?launch=friday",
  "https://apps.apple.com/app/id-secret",
  "https://secret.example/over",
];
const card = {
  title: "Our plans",
  description: "For the team",
  targetUrl: SECRETS[0],
  expiredUrl: SECRETS[2],
  rules: [{ when: { device: "ios" }, targetUrl: SECRETS[1] }],
};

let counter = 0;
async function createLink(fields: Record<string, unknown>) {
  const response = await owner.call("/api/links", {
    method: "POST",
    json: { ...card, customLinkSlug: `p${++counter}`, ...fields },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; linkSlug: string };
}
const go = (path: string, init: RequestInit & { agent?: string; forwarded?: string } = {}) =>
  fetch(`${server.url}/go/keeper/${path}`, {
    redirect: "manual",
    ...init,
    headers: {
      "user-agent": init.agent ?? browser,
      "x-forwarded-for": init.forwarded ?? "203.0.113.9",
      ...init.headers,
    },
  });
const answer = (slug: string, password: string, forwarded: string) =>
  go(slug, { method: "POST", body: new URLSearchParams({ password }), forwarded });
/** Everything an answer says: status, headers and body. */
const said = async (response: Response) =>
  `${response.status} ${JSON.stringify([...response.headers])} ${await response.text()}`;
const expectNoSecret = (text: string, where: string) => {
  for (const secret of SECRETS) expect(text, where).not.toContain(secret.replace(/&/g, "&amp;"));
  expect(text, where).not.toContain("secret.example");
};

describe("a password hides every destination from everyone without it", () => {
  test("crawlers get the owner's card and no destination, at every address of the link; curl the form a person gets", async () => {
    const link = await createLink({ password: "open sesame" });
    for (const agent of [CURL, facebook]) {
      for (const path of [link.linkSlug, `${link.linkSlug}?qr=1`, `${link.linkSlug}/1`]) {
        const response = await go(path, { agent });
        expect(response.status).toBe(200);
        const text = await said(response);
        if (agent === CURL) expect(text).toContain('<form method="post">');
        else expect(text).toContain('<meta property="og:title" content="Our plans">');
        expectNoSecret(text, `${agent} ${path}`);
      }
    }
    // People without the cookie: the form, on GET and HEAD, from any device.
    for (const agent of [browser, crawlerAgents.people["safari-iphone"]!])
      expectNoSecret(await said(await go(link.linkSlug, { agent })), agent);
    expectNoSecret(await said(await go(link.linkSlug, { method: "HEAD" })), "HEAD");
  });

  test("the inspect page says the link is password protected instead of naming its destination; a link without one still names it", async () => {
    const link = await createLink({ password: "open sesame" });
    for (const path of [`${link.linkSlug}+`, `${link.linkSlug}/1+`]) {
      const page = await go(path, { agent: CURL });
      expect(page.status).toBe(200);
      const text = await said(page);
      expect(text).toContain("Password protected");
      expect(text).toContain("Our plans");
      expectNoSecret(text, path);
    }
    const open = await createLink({ targetUrl: "https://open.example/page", expiredUrl: null, rules: null });
    expect(await (await go(`${open.linkSlug}+`)).text()).toContain("https://open.example/page");
  });

  test("expired, the expired address is behind the password too; a disabled link's warning does not name the destination", async () => {
    const link = await createLink({ password: "open sesame", expiresAt: new Date(clock.now() + 60_000).toISOString() });
    clock.advance(60_000);
    const form = await go(link.linkSlug);
    expect(form.status).toBe(200);
    expectNoSecret(await said(form), "expired, no cookie");
    expectNoSecret(await said(await answer(link.linkSlug, "guess", "198.51.100.40")), "expired, wrong answer");
    expectNoSecret(await said(await go(link.linkSlug, { method: "POST", body: "not a form" })), "expired, no password");
    const right = await answer(link.linkSlug, "open sesame", "198.51.100.40");
    expect(right.status).toBe(303);
    const after = await go(link.linkSlug, { headers: { cookie: right.headers.get("set-cookie")!.split(";")[0]! } });
    expect(after.headers.get("location")).toBe(SECRETS[2]!);

    const disabled = await createLink({ password: "open sesame" });
    await server.sql.run(
      "UPDATE links SET status = 'disabled', disabled_reason = 'Operator: phishing' WHERE id = ?",
      disabled.id,
    );
    server.changed(linkChange("keeper", disabled.linkSlug));
    const warning = await go(disabled.linkSlug);
    expect(await warning.clone().text()).toContain("this link has been disabled");
    expectNoSecret(await said(warning), "disabled");
  });
});

describe("limits that count the guesser", () => {
  test("an IPv6 client is counted by its /64: rotating addresses inside it does not buy more tries; the 429 says when to retry", async () => {
    const link = await createLink({ password: "right" });
    for (let i = 1; i <= 10; i++)
      expect((await answer(link.linkSlug, "wrong", `2001:db8:1:2::${i.toString(16)}`)).status).toBe(401);
    const limited = await answer(link.linkSlug, "right", "2001:db8:1:2:ffff:ffff:ffff:ffff");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("60");
    expect(limited.headers.get("set-cookie")).toBeNull();
    // Another /64 is another client.
    expect((await answer(link.linkSlug, "right", "2001:db8:1:3::1")).status).toBe(303);
  });

  test("behind our proxy the client is the right end of X-Forwarded-For: what a client writes to its left is not believed", async () => {
    const link = await createLink({ password: "right" });
    for (let i = 1; i <= 10; i++)
      expect((await answer(link.linkSlug, "wrong", `10.9.9.${i}, 198.51.100.60`)).status).toBe(401);
    expect((await answer(link.linkSlug, "right", "10.9.9.99, 198.51.100.60")).status).toBe(429);
  });

  test("a link takes 20 wrong answers a minute from all clients together, then none (right or wrong) until the minute ends", async () => {
    clock.advance(60_000 - (clock.now() % 60_000));
    const link = await createLink({ password: "right" });
    for (let i = 0; i < 20; i++)
      expect((await answer(link.linkSlug, "wrong", `198.51.100.${70 + (i % 4)}`)).status).toBe(401);
    const locked = await answer(link.linkSlug, "right", "198.51.100.80");
    expect(locked.status).toBe(429);
    expect(locked.headers.get("retry-after")).toBe("60");
    expect(await locked.text()).toContain("Too many wrong passwords were tried on this link");
    clock.advance(30_000);
    expect((await answer(link.linkSlug, "right", "198.51.100.81")).headers.get("retry-after")).toBe("30");
    clock.advance(30_000);
    expect((await answer(link.linkSlug, "right", "198.51.100.81")).status).toBe(303);
  });

  test("an hour's limit is not reset by another limit's minute: the sixth report in an hour is refused after a sign-in request", async () => {
    const link = await createLink({ targetUrl: "https://open.example/reported", expiredUrl: null, rules: null });
    const report = () =>
      fetch(`${server.url}/api/reports`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.90" },
        body: JSON.stringify({ address: `keeper/${link.linkSlug}`, reason: "spam" }),
      });
    for (let i = 0; i < 5; i++) expect((await report()).status).toBe(201);
    clock.advance(60_000);
    await fetch(`${server.url}/api/auth/login-link`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.91" },
      body: JSON.stringify({ email: "someone@example.com" }),
    });
    expect((await report()).status).toBe(429);
  });
});
