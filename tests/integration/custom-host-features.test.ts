// Inspect pages, reports and password links on a verified custom domain (src/go/custom-host.ts), over real
// HTTP on SQLite and PostgreSQL: the same answers as /go gives them, at the custom address, for that domain's
// own links only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { linkChange } from "../../src/db/change.ts";
import { TestClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/eventually.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let dns: TestDnsServer;
let alice: ApiClient;
let bob: ApiClient;
const clock = new TestClock(Date.parse("2026-11-25T12:00:00Z"));
const CNAME_TARGET = "edge.lp.example";
const HOST = "links.features-acme.test";
const person = crawlerAgents.people["chrome-windows"]!;
const card = { targetUrl: "https://acme.test/summer", title: "Summer sale", description: "Everything half price" };

/** A request to the custom host, from `address` (the server trusts X-Forwarded-For). */
const onHost = (path: string, init: RequestInit & { address?: string } = {}) =>
  fetch(`${server.url}${path}`, {
    redirect: "manual",
    ...init,
    headers: { host: HOST, "user-agent": person, "x-forwarded-for": init.address ?? "203.0.113.9", ...init.headers },
  });
const humanViews = async (linkId: number) => {
  await server.flushViews();
  return (await server.sql.get<{ n: number }>(
    "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS n FROM view_rollups WHERE link_id = ?",
    linkId,
  ))!.n;
};

async function createLink(owner: ApiClient, fields: Record<string, unknown>) {
  const response = await owner.call("/api/links", { method: "POST", json: { ...card, ...fields } });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; linkSlug: string; shortUrl: string };
}

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer(
    {
      PUBLIC_URL: "https://lp.example",
      TRUST_PROXY: "true",
      DNS_SERVERS: dns.address,
      DOMAIN_CNAME_TARGET: CNAME_TARGET,
      TLS_ASK_PORT: "0",
    },
    clock,
  );
  alice = await apiClient(server, null);
  bob = await apiClient(server, null);
  const added = await alice.call("/api/domains", { method: "POST", json: { hostname: HOST } });
  const domain = (await added.json()) as { id: number; verification: { txtName: string; txtValue: string } };
  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(HOST, { cname: CNAME_TARGET });
  const verified = await alice.call(`/api/domains/${domain.id}/verify`, { method: "POST" });
  expect(((await verified.json()) as { status: string }).status).toBe("verified");
  await eventually(async () => expect((await fetch(`${server.askUrl}/tls/ask?domain=${HOST}`)).status).toBe(200));
});
afterAll(async () => {
  await server.close();
  dns.close();
});

describe("inspect on a custom host", () => {
  let summer: { id: number; linkSlug: string };
  beforeAll(async () => {
    summer = await createLink(alice, { customLinkSlug: "summer", domain: HOST });
    await createLink(alice, { customLinkSlug: "gone-bad", domain: HOST, targetUrl: "https://acme.test/gone-bad" });
    await server.sql.run(
      "UPDATE links SET status = 'disabled', disabled_reason = 'Operator: phishing kit' WHERE link_slug = 'gone-bad'",
    );
    server.changed(linkChange(alice.userSlug, "gone-bad"));
    // Bob's links under slugs that Alice's domain does not have, and Alice's own link not placed on the domain.
    await createLink(bob, { customLinkSlug: "bobs", targetUrl: "https://bob.test/secret" });
    await createLink(alice, { customLinkSlug: "plain", targetUrl: "https://acme.test/plain" });
  });

  test("/{slug}+ and /{slug}/1+ show the destination, card, status and a report form naming the custom address; no view counted", async () => {
    for (const [path, address] of [
      ["/summer+", `https://${HOST}/summer`],
      ["/summer/1+", `https://${HOST}/summer/1`],
    ] as const) {
      const response = await onHost(path);
      expect(response.status, path).toBe(200);
      const html = await response.text();
      for (const text of [
        card.targetUrl,
        card.title,
        "Active",
        "Report this link",
        'action="/api/reports"',
        `<input type="hidden" name="address" value="${address}">`,
      ])
        expect(html).toContain(text);
      expect(html).not.toContain("/go/");
    }
    expect((await onHost("/summer/2+")).status).toBe(404);
    expect(await humanViews(summer.id)).toBe(0);
  });

  test("a disabled link's page shows its reason and not its card", async () => {
    const html = await (await onHost("/gone-bad+")).text();
    expect(html).toContain("Disabled: Operator: phishing kit");
    expect(html).toContain("https://acme.test/gone-bad");
    expect(html).not.toContain(card.title);
  });

  test("another owner's link, the owner's link not on the domain and an unknown slug have no page there", async () => {
    for (const path of [
      "/bobs+",
      "/plain+",
      "/nothing+",
      `/go/${bob.userSlug}/bobs+`,
      `/go/${alice.userSlug}/summer/1+`,
      `/go/${alice.userSlug}/summer+`,
    ]) {
      const response = await onHost(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).not.toContain("https://");
    }
  });

  test("the report form posts to the custom host with the custom address: reported as that link, back to its inspect page", async () => {
    const form = await onHost("/api/reports", {
      method: "POST",
      address: "198.51.100.20",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: `https://${HOST}`,
        "sec-fetch-site": "same-origin",
      },
      body: new URLSearchParams({ address: `https://${HOST}/summer`, reason: "spam", details: "" }),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe(`https://${HOST}/summer+?reported=1`);
    expect(await (await onHost("/summer+?reported=1")).text()).toContain(
      "Thank you: your report was sent to the operators.",
    );
    const stored = await server.sql.get<{ link_id: number; address: string }>(
      "SELECT link_id, address FROM abuse_reports ORDER BY id DESC LIMIT 1",
    );
    expect(stored).toEqual({ link_id: summer.id, address: `${alice.userSlug}/summer` });
  });

  test("the API takes a custom-domain short URL (a version too) as the address, and never resolves it to another owner's link", async () => {
    const post = (address: string) =>
      fetch(`${server.url}/api/reports`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": "198.51.100.21" },
        body: JSON.stringify({ address, reason: "phishing" }),
      });
    for (const address of [`https://${HOST}/summer`, `https://${HOST.toUpperCase()}/summer/1+`]) {
      const response = await post(address);
      expect(response.status, address).toBe(201);
      expect(((await response.json()) as { address: string }).address).toBe(`${alice.userSlug}/summer`);
    }
    // /{user}/{link} on the custom host is not Bob's /go address, and Bob's slug is not on Alice's domain.
    for (const address of [`https://${HOST}/${bob.userSlug}/bobs`, `https://${HOST}/bobs`])
      expect((await post(address)).status, address).toBe(404);
  });
});

describe("password links on a custom host", () => {
  test("the form, a wrong answer refused, a right one sets a cookie for /{slug} and 303s back; the view counts only after", async () => {
    const link = await createLink(alice, {
      customLinkSlug: "vault",
      domain: HOST,
      targetUrl: "https://acme.test/vault",
      password: "open sesame",
    });
    const form = await onHost("/vault");
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('<form method="post">');
    // curl gets the form a person gets (docs/decisions/0059), the inspect page that it is protected: neither the destination.
    const crawled = await (await onHost("/vault", { headers: { "user-agent": "curl/8.5.0" } })).text();
    expect(crawled).toContain('<form method="post">');
    expect(crawled).not.toContain("https://acme.test/vault");
    const inspected = await (await onHost("/vault+")).text();
    expect(inspected).toContain("Password protected");
    expect(inspected).not.toContain("https://acme.test/vault");

    const answer = (password: string, path = "/vault", address = "198.51.100.1") =>
      onHost(path, {
        method: "POST",
        address,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password }),
      });
    const wrong = await answer("guess");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("That password is not right.");
    expect(await humanViews(link.id)).toBe(0);

    const right = await answer("open sesame");
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/vault");
    const cookie = right.headers.get("set-cookie")!;
    expect(cookie).toContain("Path=/vault;");
    expect(cookie).toContain("Max-Age=86400");
    expect(cookie).toContain("Secure");
    const pair = cookie.split(";")[0]!;
    expect(await humanViews(link.id)).toBe(0);

    const through = await onHost("/vault", { headers: { cookie: pair } });
    expect(through.status).toBe(302);
    expect(through.headers.get("location")).toBe("https://acme.test/vault");
    expect(await humanViews(link.id)).toBe(1);
    // A version's address shares the cookie; it answers a POST too.
    expect((await onHost("/vault/1", { headers: { cookie: pair } })).headers.get("location")).toBe(
      "https://acme.test/vault",
    );
    expect((await answer("open sesame", "/vault/1")).headers.get("set-cookie")).toContain("Path=/vault;");
  });

  test("answers are rate-limited per address, as on /go", async () => {
    await createLink(alice, { customLinkSlug: "limited", domain: HOST, password: "right" });
    const attempt = (address: string, password = "wrong") =>
      onHost("/limited", {
        method: "POST",
        address,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password }),
      });
    for (let i = 0; i < 10; i++) expect((await attempt("198.51.100.7")).status).toBe(401);
    const limited = await attempt("198.51.100.7", "right");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("set-cookie")).toBeNull();
    expect((await attempt("198.51.100.8", "right")).status).toBe(303);
  });

  test("no cross-owner answer: another owner's protected link, the root and /go/… refuse a POST on the custom host", async () => {
    await createLink(bob, { customLinkSlug: "bobvault", password: "open sesame" });
    const post = (path: string) =>
      onHost(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password: "open sesame" }),
      });
    for (const path of [`/go/${bob.userSlug}/bobvault`, `/go/${alice.userSlug}/vault`, "/bobvault"]) {
      const response = await post(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect((await post("/")).status).toBe(405);
    // A link without a password takes no answer.
    expect((await post("/summer")).status).toBe(405);
  });
});
