// A renamed link keeps answering at its old short URL (printed QR codes, shared posts): people are redirected,
// crawlers get the same card, views count to the link; its owner may drop the old address, which then answers 410
// Gone and is never taken again. A link moved to another custom domain keeps its old address there the same way.
// Over real HTTP, on SQLite and (LINKPREV_TEST_DB=postgres) PostgreSQL. docs/decisions/0047.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually } from "../helpers/eventually.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let dns: TestDnsServer;
let alice: ApiClient;
const CNAME_TARGET = "edge.lp.example";
const OLD_HOST = "old.renames-acme.test";
const NEW_HOST = "new.renames-acme.test";
const PERSON = crawlerAgents.people["chrome-windows"]!;
const CRAWLER = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
const card = { targetUrl: "https://acme.test/spring", title: "Spring sale", description: "Everything half price" };

type LinkJson = {
  id: number;
  linkSlug: string;
  shortUrl: string;
  oldAddresses?: Array<{ id: number; shortUrl: string; movedAt: string }>;
};

const visit = (path: string, userAgent = PERSON, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { redirect: "manual", ...init, headers: { "user-agent": userAgent, ...init.headers } });
const onHost = (host: string, path: string, userAgent = PERSON) => visit(path, userAgent, { headers: { host } });
const views = async (linkId: number) => {
  await server.flushViews();
  return (await server.sql.get<{ human: number; bot: number }>(
    "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS human, CAST(coalesce(sum(bot), 0) AS INTEGER) AS bot FROM view_rollups WHERE link_id = ?",
    linkId,
  ))!;
};
const scans = async (linkId: number) => {
  await server.flushViews();
  return (await server.sql.get<{ n: number }>(
    "SELECT CAST(coalesce(sum(scans), 0) AS INTEGER) AS n FROM view_rollups WHERE link_id = ?",
    linkId,
  ))!.n;
};
const ogUrl = (html: string) => /<meta property="og:url" content="([^"]*)"/.exec(html)?.[1];

async function createLink(fields: Record<string, unknown>): Promise<LinkJson> {
  const response = await alice.call("/api/links", { method: "POST", json: { ...card, ...fields } });
  expect(response.status).toBe(201);
  return (await response.json()) as LinkJson;
}
const edit = (slug: string, fields: Record<string, unknown>) =>
  alice.call(`/api/links/by-slug/${slug}`, { method: "PUT", json: { ...card, ...fields } });
const getLink = async (slug: string) => (await (await alice.call(`/api/links/by-slug/${slug}`)).json()) as LinkJson;

async function addDomain(hostname: string): Promise<void> {
  const added = await alice.call("/api/domains", { method: "POST", json: { hostname } });
  const domain = (await added.json()) as { id: number; verification: { txtName: string; txtValue: string } };
  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(hostname, { cname: CNAME_TARGET });
  const verified = await alice.call(`/api/domains/${domain.id}/verify`, { method: "POST" });
  expect(((await verified.json()) as { status: string }).status).toBe("verified");
  await eventually(async () => expect((await fetch(`${server.askUrl}/tls/ask?domain=${hostname}`)).status).toBe(200));
}

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer({
    PUBLIC_URL: "https://lp.example",
    DNS_SERVERS: dns.address,
    DOMAIN_CNAME_TARGET: CNAME_TARGET,
    TLS_ASK_PORT: "0",
  });
  alice = await apiClient(server, null);
  await addDomain(OLD_HOST);
  await addDomain(NEW_HOST);
});
afterAll(async () => {
  await server.close();
  dns.close();
});

describe("a renamed link", () => {
  let link: LinkJson;
  beforeAll(async () => {
    link = await createLink({ customLinkSlug: "spring" });
    // Cached under both addresses before the rename: live at the old one, unknown at the new one.
    expect((await visit(`/go/${alice.userSlug}/spring`)).status).toBe(302);
    expect((await visit(`/go/${alice.userSlug}/spring-sale`)).status).toBe(404);
    const renamed = await edit("spring", { customLinkSlug: "spring-sale" });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as LinkJson).oldAddresses).toMatchObject([
      { shortUrl: `https://lp.example/go/${alice.userSlug}/spring` },
    ]);
  });

  test("redirects people, gives crawlers the card and counts both to the link at its old address", async () => {
    const before = await views(link.id);
    const person = await visit(`/go/${alice.userSlug}/spring`);
    expect(person.status).toBe(302);
    expect(person.headers.get("location")).toBe(card.targetUrl);
    const crawler = await visit(`/go/${alice.userSlug}/spring`, CRAWLER);
    expect(crawler.status).toBe(200);
    const html = await crawler.text();
    expect(html).toContain(card.title);
    expect(ogUrl(html)).toBe(`https://lp.example/go/${alice.userSlug}/spring-sale`);
    expect((await visit(`/go/${alice.userSlug}/spring-sale`)).status).toBe(302);
    expect(await views(link.id)).toEqual({ human: before.human + 2, bot: before.bot + 1 });
  });

  test("its printed QR code (?qr=1) and a version at the old address answer for the link", async () => {
    expect((await visit(`/go/${alice.userSlug}/spring?qr=1`)).status).toBe(302);
    expect(await scans(link.id)).toBe(1);
    expect((await visit(`/go/${alice.userSlug}/spring/2`)).status).toBe(404);
    expect((await alice.call(`/api/links/${link.id}/versions`, { method: "POST" })).status).toBe(201);
    const version = await visit(`/go/${alice.userSlug}/spring/2`, CRAWLER);
    expect(version.status).toBe(200);
    expect(ogUrl(await version.text())).toBe(`https://lp.example/go/${alice.userSlug}/spring-sale/2`);
  });

  test("follows the link's later edits (a new target)", async () => {
    expect((await visit(`/go/${alice.userSlug}/spring`)).headers.get("location")).toBe(card.targetUrl);
    expect((await edit("spring-sale", { targetUrl: "https://acme.test/spring-2" })).status).toBe(200);
    expect((await visit(`/go/${alice.userSlug}/spring`)).headers.get("location")).toBe("https://acme.test/spring-2");
  });

  test("is not free for another link while the link holds it", async () => {
    const taken = await alice.call("/api/links", { method: "POST", json: { ...card, customLinkSlug: "spring" } });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { message: string }).message).toBe("This custom URL is already taken");
    const other = await createLink({ customLinkSlug: "autumn" });
    expect((await edit("autumn", { customLinkSlug: "spring" })).status).toBe(409);
    expect((await visit(`/go/${alice.userSlug}/spring`)).headers.get("location")).toBe("https://acme.test/spring-2");
    expect(other.linkSlug).toBe("autumn");
  });

  test("dropped: answers 410 Gone to people and crawlers, counts nothing, and its slug is never taken again", async () => {
    const [old] = (await getLink("spring-sale")).oldAddresses!;
    expect((await alice.call(`/api/links/${link.id}/old-addresses/${old!.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await getLink("spring-sale")).oldAddresses).toEqual([]);
    const before = await views(link.id);
    for (const path of [
      `/go/${alice.userSlug}/spring`,
      `/go/${alice.userSlug}/spring/2`,
      `/go/${alice.userSlug}/spring?qr=1`,
    ]) {
      const person = await visit(path);
      expect(person.status, path).toBe(410);
      expect(person.headers.get("location")).toBeNull();
      expect((await visit(path, CRAWLER)).status, path).toBe(410);
    }
    expect(await views(link.id)).toEqual(before);
    expect(
      (await alice.call("/api/links", { method: "POST", json: { ...card, customLinkSlug: "spring" } })).status,
    ).toBe(409);
    expect((await edit("spring-sale", { customLinkSlug: "spring" })).status).toBe(409);
    expect((await alice.call(`/api/links/${link.id}/old-addresses/${old!.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await visit(`/go/${alice.userSlug}/spring`)).status).toBe(410);
  });
});

test("a renamed password link opens at its old address: the password given there is remembered there", async () => {
  await createLink({ customLinkSlug: "vault", targetUrl: "https://acme.test/vault", password: "open sesame" });
  expect(
    (
      await edit("vault", {
        customLinkSlug: "fresh-vault",
        targetUrl: "https://acme.test/vault",
        password: "open sesame",
      })
    ).status,
  ).toBe(200);
  const old = `/go/${alice.userSlug}/vault`;
  const given = await visit(old, PERSON, { method: "POST", body: new URLSearchParams({ password: "open sesame" }) });
  expect(given.status).toBe(303);
  expect(given.headers.get("location")).toBe(old);
  const cookie = given.headers.get("set-cookie")!;
  expect(cookie).toContain(`Path=${old};`);
  const opened = await visit(old, PERSON, { headers: { cookie: cookie.split(";")[0]! } });
  expect(opened.status).toBe(302);
  expect(opened.headers.get("location")).toBe("https://acme.test/vault");
});

test("a link may take back its own old slug, and deleting a link frees its old addresses as it frees its slug", async () => {
  const link = await createLink({ customLinkSlug: "winter" });
  expect((await edit("winter", { customLinkSlug: "winter-sale" })).status).toBe(200);
  const back = await edit("winter-sale", { customLinkSlug: "winter" });
  expect(back.status).toBe(200);
  expect(((await back.json()) as LinkJson).oldAddresses).toMatchObject([
    { shortUrl: `https://lp.example/go/${alice.userSlug}/winter-sale` },
  ]);
  expect((await visit(`/go/${alice.userSlug}/winter`)).status).toBe(302);
  expect((await visit(`/go/${alice.userSlug}/winter-sale`)).status).toBe(302);

  expect((await alice.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(204);
  expect((await visit(`/go/${alice.userSlug}/winter-sale`)).status).toBe(404);
  const again = await createLink({ customLinkSlug: "winter-sale", targetUrl: "https://acme.test/winter-again" });
  expect((await visit(`/go/${alice.userSlug}/winter-sale`)).headers.get("location")).toBe(
    "https://acme.test/winter-again",
  );
  expect(again.linkSlug).toBe("winter-sale");
});

test("a link moved to another custom domain keeps answering at its address on the old one, until dropped", async () => {
  const link = await createLink({ customLinkSlug: "menu", domain: OLD_HOST, targetUrl: "https://acme.test/menu" });
  expect(link.shortUrl).toBe(`https://${OLD_HOST}/menu`);
  expect((await onHost(OLD_HOST, "/menu")).status).toBe(302);
  expect((await onHost(NEW_HOST, "/menu")).status).toBe(404);

  const moved = await edit("menu", { domain: NEW_HOST, targetUrl: "https://acme.test/menu" });
  expect(moved.status).toBe(200);
  const json = (await moved.json()) as LinkJson;
  expect(json.shortUrl).toBe(`https://${NEW_HOST}/menu`);
  expect(json.oldAddresses).toMatchObject([{ shortUrl: `https://${OLD_HOST}/menu` }]);

  const before = await views(link.id);
  for (const host of [OLD_HOST, NEW_HOST]) {
    const person = await onHost(host, "/menu");
    expect(person.status, host).toBe(302);
    expect(person.headers.get("location")).toBe("https://acme.test/menu");
    const crawler = await onHost(host, "/menu", CRAWLER);
    expect(crawler.status, host).toBe(200);
    expect(await crawler.text()).toContain(card.title);
  }
  expect(await views(link.id)).toEqual({ human: before.human + 2, bot: before.bot + 2 });
  // An address the link never had on the old domain is still unknown there.
  expect((await onHost(OLD_HOST, "/never-made")).status).toBe(404);

  expect(
    (await alice.call(`/api/links/${link.id}/old-addresses/${json.oldAddresses![0]!.id}`, { method: "DELETE" })).status,
  ).toBe(204);
  expect((await onHost(OLD_HOST, "/menu")).status).toBe(410);
  expect((await onHost(NEW_HOST, "/menu")).status).toBe(302);
  expect((await visit(`/go/${alice.userSlug}/menu`)).status).toBe(302);
});

describe("an earlier address is the link's everywhere the address is taken in, and nowhere else", () => {
  const report = (address: string) =>
    fetch(`${server.url}/api/reports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address, reason: "spam", details: "" }),
    });
  const domainId = async (hostname: string) =>
    (
      (await (await alice.call("/api/domains")).json()) as { domains: Array<{ id: number; hostname: string }> }
    ).domains.find((d) => d.hostname === hostname)!.id;

  test("a report filed against an earlier address (of /go, of a custom domain) is a report about the link", async () => {
    const renamed = await createLink({ customLinkSlug: "reported-old" });
    expect((await edit("reported-old", { customLinkSlug: "reported-new" })).status).toBe(200);
    for (const address of [`${alice.userSlug}/reported-old`, `https://lp.example/go/${alice.userSlug}/reported-old`]) {
      const filed = await report(address);
      expect(filed.status, address).toBe(201);
      expect(await filed.json()).toMatchObject({ address: `${alice.userSlug}/reported-new` });
    }
    await createLink({ customLinkSlug: "reported-menu", domain: OLD_HOST });
    expect((await edit("reported-menu", { domain: NEW_HOST })).status).toBe(200);
    const onOldHost = await report(`https://${OLD_HOST}/reported-menu`);
    expect(onOldHost.status).toBe(201);
    expect(await onOldHost.json()).toMatchObject({ address: `${alice.userSlug}/reported-menu` });
    // Dropped, the address names no link any more.
    const [old] = (await getLink("reported-new")).oldAddresses!;
    expect((await alice.call(`/api/links/${renamed.id}/old-addresses/${old!.id}`, { method: "DELETE" })).status).toBe(
      204,
    );
    expect((await report(`${alice.userSlug}/reported-old`)).status).toBe(404);
  });

  test("the editor's slug check agrees with saving: a link's own earlier slug is free to it, and to it only", async () => {
    const link = await createLink({ customLinkSlug: "checked-old" });
    const other = await createLink({ customLinkSlug: "checked-other" });
    expect((await edit("checked-old", { customLinkSlug: "checked-new" })).status).toBe(200);
    const check = async (query: string) =>
      (await (await alice.call(`/api/links/check-slug-availability?${query}`)).json()) as { available: boolean };
    expect(await check("slug=checked-old")).toMatchObject({ available: false });
    expect(await check(`slug=checked-old&linkId=${other.id}`)).toMatchObject({ available: false });
    expect(await check(`slug=checked-old&linkId=${link.id}`)).toMatchObject({ available: true });
    expect(await check(`slug=checked-new&linkId=${link.id}`)).toMatchObject({ available: true });
    expect(await check(`slug=checked-other&linkId=${link.id}`)).toMatchObject({ available: false });
    expect((await alice.call("/api/links/check-slug-availability?slug=checked-old&linkId=x")).status).toBe(400);
    expect((await edit("checked-new", { customLinkSlug: "checked-old" })).status).toBe(200);
  });

  test("/go never answers for an address moved off a custom domain (slug@domain), served there or not", async () => {
    await createLink({ customLinkSlug: "carte", domain: OLD_HOST, targetUrl: "https://acme.test/carte" });
    expect((await edit("carte", { domain: NEW_HOST, targetUrl: "https://acme.test/carte" })).status).toBe(200);
    const path = `/go/${alice.userSlug}/${encodeURIComponent(`carte@${await domainId(OLD_HOST)}`)}`;
    expect((await visit(path)).status).toBe(404);
    // Now held by the cache for the old domain's host: still none of /go's.
    expect((await onHost(OLD_HOST, "/carte")).status).toBe(302);
    for (const suffix of ["", "/1", "+"]) expect((await visit(`${path}${suffix}`)).status, suffix).toBe(404);
    expect((await visit(path, CRAWLER)).status).toBe(404);
    expect((await visit(path, PERSON, { method: "POST", body: new URLSearchParams({ password: "x" }) })).status).toBe(
      404,
    );
    expect((await visit(`/go/${alice.userSlug}/carte`)).status).toBe(302);
  });
});
