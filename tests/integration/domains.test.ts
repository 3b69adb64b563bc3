// Custom domains over real HTTP on SQLite and PostgreSQL: the API (normalisation, refusals, plans), verification
// against a real DNS server on loopback (tests/helpers/dns-server.ts), the status ladder on the test clock, the
// host routing matrix (crawlers and people, og:url on the host fetched, no cross-owner leak) and Caddy's ask check.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/eventually.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { join } from "node:path";
import {
  apiClient,
  crawlerAgents,
  seedApiToken,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let dns: TestDnsServer;
const clock = new TestClock();
const CNAME_TARGET = "edge.lp.example";
const ADDRESS = "203.0.113.7";
const ADDRESS6 = "2001:db8::7";

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer(
    {
      PUBLIC_URL: "https://lp.example",
      DNS_SERVERS: dns.address,
      DOMAIN_CNAME_TARGET: CNAME_TARGET,
      DOMAIN_ADDRESSES: `${ADDRESS}, ${ADDRESS6}`,
      TLS_ASK_PORT: "0",
    },
    clock,
  );
});
afterAll(async () => {
  await server.close();
  dns.close();
});

type DomainJson = {
  id: number;
  hostname: string;
  status: string;
  reason: string | null;
  lastCheckedAt: string | null;
  verification: { txtName: string; txtValue: string };
  records: Array<{ type: string; name: string; value: string }>;
};

const facebook = crawlerAgents.crawlers.facebook![0]!;
const twitter = crawlerAgents.crawlers.x![0]!;
const person = crawlerAgents.people["chrome-windows"]!;
const meta = (html: string, key: string) =>
  new RegExp(`<meta property="${key}" content="([^"]*)">`).exec(html)?.[1] ?? null;
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1] ?? null;
const onHost = (host: string, path: string, userAgent: string, method = "GET") =>
  fetch(`${server.url}${path}`, { method, redirect: "manual", headers: { host, "user-agent": userAgent } });
const ask = (name: string) => fetch(`${server.askUrl}/tls/ask?domain=${encodeURIComponent(name)}`);

async function add(owner: ApiClient, hostname: string): Promise<DomainJson> {
  const response = await owner.call("/api/domains", { method: "POST", json: { hostname } });
  expect(response.status).toBe(201);
  return (await response.json()) as DomainJson;
}
const verify = async (owner: ApiClient, id: number) =>
  (await (await owner.call(`/api/domains/${id}/verify`, { method: "POST" })).json()) as DomainJson;
/** Publishes the proof and the routing: a CNAME for a subdomain, A/AAAA for an apex. */
function publish(domain: DomainJson, routing: "cname" | "a" = "cname") {
  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(domain.hostname, routing === "cname" ? { cname: CNAME_TARGET } : { a: [ADDRESS] });
}
async function verifiedDomain(owner: ApiClient, hostname: string): Promise<DomainJson> {
  const domain = await add(owner, hostname);
  publish(domain);
  const checked = await verify(owner, domain.id);
  expect(checked.status).toBe("verified");
  // Served once the host map has reloaded (the ask check reads the same map as the routing).
  await eventually(async () => expect((await ask(hostname)).status).toBe(200));
  return checked;
}

describe("adding a domain: normalised, refused when it cannot be one", () => {
  test("each form is stored as lower-case ASCII without trailing dot, port or scheme", async () => {
    const owner = await apiClient(server, null);
    for (const [typed, stored] of [
      ["Links.Norm-Acme.TEST.", "links.norm-acme.test"],
      ["go.norm-acme.test:8443", "go.norm-acme.test"],
      ["https://s.norm-acme.test/", "s.norm-acme.test"],
      ["münchen-norm.test", "xn--mnchen-norm-thb.test"],
    ]) {
      const domain = await add(owner, typed!);
      expect(domain.hostname).toBe(stored!);
      expect(domain.status).toBe("pending");
      expect(domain.verification).toEqual({
        txtName: `_linkprev.${stored}`,
        txtValue: expect.stringMatching(/^linkprev-verify=[0-9a-f]{32}$/),
      });
    }
  });

  test("IP literals, the instance's own host and names under it, non-hostnames: 400 naming why; a name added twice: 409", async () => {
    const owner = await apiClient(server, null);
    const other = await apiClient(server, null);
    for (const [hostname, message] of [
      ["203.0.113.9", /IP address/],
      ["[2001:db8::1]", /IP address/],
      ["2001:db8::1", /IP address/],
      ["lp.example", /own host/],
      ["links.lp.example", /own host/],
      ["LP.EXAMPLE.", /own host/],
      ["localhost", /Not a valid hostname/],
      ["bad_host!.test", /Not a valid hostname/],
    ]) {
      const response = await owner.call("/api/domains", { method: "POST", json: { hostname } });
      expect(response.status, String(hostname)).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(message as RegExp);
    }
    await add(owner, "claimed.acme.test");
    for (const again of ["claimed.acme.test", "CLAIMED.acme.test."]) {
      const response = await owner.call("/api/domains", { method: "POST", json: { hostname: again } });
      expect(response.status).toBe(409);
    }
    // Another account's unverified claim blocks no one (tests/integration/domains-squatting.test.ts).
    expect((await other.call("/api/domains", { method: "POST", json: { hostname: "claimed.acme.test" } })).status).toBe(
      201,
    );
  });

  test("a rootUrl or notFoundUrl over 2048 characters once its non-ASCII is percent-encoded: 400 naming it, nothing stored", async () => {
    const owner = await apiClient(server, null);
    const domain = await add(owner, "long.acme.test");
    for (const field of ["rootUrl", "notFoundUrl"]) {
      const response = await owner.call(`/api/domains/${domain.id}`, {
        method: "PATCH",
        json: { [field]: `https://a.example/${"é".repeat(1000)}` },
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe(
        `${field}: must be 2048 characters or less (as a URL, with its non-ASCII characters encoded)`,
      );
    }
    const stored = (await (await owner.call(`/api/domains/${domain.id}`)).json()) as {
      rootUrl: string | null;
      notFoundUrl: string | null;
    };
    expect([stored.rootUrl, stored.notFoundUrl]).toEqual([null, null]);
  });

  test("with billing off everyone has enterprise's ten domains, and no more", async () => {
    const enterprise = await apiClient(server, null);
    for (let n = 0; n < 10; n++) await add(enterprise, `d${n}.plan-acme.test`);
    const eleventh = await enterprise.call("/api/domains", {
      method: "POST",
      json: { hostname: "d10.plan-acme.test" },
    });
    expect(eleventh.status).toBe(403);
  });

  test("the records to publish: TXT and CNAME for a subdomain, TXT and A/AAAA for an apex", async () => {
    const owner = await apiClient(server, null);
    const sub = await add(owner, "links.records-acme.test");
    expect(sub.records).toEqual([
      { type: "TXT", name: "_linkprev.links.records-acme.test", value: sub.verification.txtValue },
      { type: "CNAME", name: "links.records-acme.test", value: CNAME_TARGET },
    ]);
    const apex = await add(owner, "records-acme.co.uk");
    expect(apex.records).toEqual([
      { type: "TXT", name: "_linkprev.records-acme.co.uk", value: apex.verification.txtValue },
      { type: "A", name: "records-acme.co.uk", value: ADDRESS },
      { type: "AAAA", name: "records-acme.co.uk", value: ADDRESS6 },
    ]);
  });
});

describe("verification against a DNS server", () => {
  test("a TXT value split into chunks, among several TXT records, with a CNAME chain to the target: verified", async () => {
    const owner = await apiClient(server, null);
    const domain = await add(owner, "chain.dns-acme.test");
    const token = domain.verification.txtValue;
    dns.zone.set(domain.verification.txtName, {
      txt: [
        ["v=spf1 -all"],
        [token.slice(0, 10), token.slice(10, 30), token.slice(30)],
        ["google-site-verification=x"],
      ],
    });
    dns.zone.set("chain.dns-acme.test", { cname: "hop1.dns-acme.test" });
    dns.zone.set("hop1.dns-acme.test", { cname: CNAME_TARGET });
    const checked = await verify(owner, domain.id);
    expect(checked).toMatchObject({ status: "verified", reason: null });
    expect(checked.lastCheckedAt).not.toBeNull();
  });

  test("a TXT set too big for a UDP answer (truncated): asked again over TCP, verified", async () => {
    const owner = await apiClient(server, null);
    const domain = await add(owner, "big.dns-acme.test");
    // Six 200-byte site-verification values before ours: well over a 512-byte datagram.
    const others = Array.from({ length: 6 }, (_, i) => [`site-verification-${i}=${"x".repeat(180)}`]);
    dns.zone.set(domain.verification.txtName, { txt: [...others, [domain.verification.txtValue]] });
    dns.zone.set("big.dns-acme.test", { cname: CNAME_TARGET });
    const before = dns.tcpQuestions;
    expect(await verify(owner, domain.id)).toMatchObject({ status: "verified", reason: null });
    expect(dns.tcpQuestions).toBeGreaterThan(before);
  });

  test("an apex with an A record (or AAAA) to the configured addresses: verified", async () => {
    const owner = await apiClient(server, null);
    const a = await add(owner, "apex-a.test");
    publish(a, "a");
    expect((await verify(owner, a.id)).status).toBe("verified");
    const aaaa = await add(owner, "apex-aaaa.test");
    dns.zone.set(aaaa.verification.txtName, { txt: [[aaaa.verification.txtValue]] });
    dns.zone.set("apex-aaaa.test", { aaaa: [ADDRESS6] });
    expect((await verify(owner, aaaa.id)).status).toBe("verified");
  });

  test("no TXT (NXDOMAIN), a wrong TXT, or a host pointing elsewhere: pending, with the reason", async () => {
    const owner = await apiClient(server, null);
    const domain = await add(owner, "pending.dns-acme.test");
    expect(await verify(owner, domain.id)).toMatchObject({
      status: "pending",
      reason: "No TXT record at _linkprev.pending.dns-acme.test",
    });
    dns.zone.set(domain.verification.txtName, { txt: [["linkprev-verify=someone-elses"]] });
    expect((await verify(owner, domain.id)).reason).toMatch(/does not hold the verification token/);
    dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
    dns.zone.set("pending.dns-acme.test", { a: ["198.51.100.1"] });
    expect(await verify(owner, domain.id)).toMatchObject({
      status: "pending",
      reason: expect.stringMatching(/does not point here/),
    });
  });

  test("SERVFAIL and timeouts never un-verify; records gone make it failing (still served), 7 days later invalid (not served)", async () => {
    const owner = await apiClient(server, null);
    const domain = await verifiedDomain(owner, "ladder.dns-acme.test");
    dns.zone.set(domain.verification.txtName, { fail: "servfail" });
    expect(await verify(owner, domain.id)).toMatchObject({
      status: "verified",
      reason: expect.stringMatching(/SERVFAIL/),
    });
    dns.zone.set(domain.verification.txtName, { fail: "timeout" });
    expect(await verify(owner, domain.id)).toMatchObject({
      status: "verified",
      reason: expect.stringMatching(/no answer/),
    });
    dns.zone.delete(domain.verification.txtName);
    expect((await verify(owner, domain.id)).status).toBe("failing");
    expect((await ask("ladder.dns-acme.test")).status).toBe(200);
    clock.advance(6 * 86_400_000);
    expect((await verify(owner, domain.id)).status).toBe("failing");
    clock.advance(86_400_000);
    expect((await verify(owner, domain.id)).status).toBe("invalid");
    // Every node's host map reloads on the announced change.
    await eventually(async () => expect((await ask("ladder.dns-acme.test")).status).toBe(403));
    // Records back: verified again.
    publish(domain);
    expect((await verify(owner, domain.id)).status).toBe("verified");
  });
});

describe("host routing", () => {
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceDomain: DomainJson;
  let linkId: number;
  beforeAll(async () => {
    alice = await apiClient(server, null);
    bob = await apiClient(server, null);
    aliceDomain = await verifiedDomain(alice, "links.route-acme.test");
    await alice.call(`/api/domains/${aliceDomain.id}`, {
      method: "PATCH",
      json: { rootUrl: "https://acme.test/home" },
    });
    const created = await alice.call("/api/links", {
      method: "POST",
      json: {
        targetUrl: "https://acme.test/summer",
        title: "Summer sale",
        description: "Everything half price",
        customLinkSlug: "summer",
        domain: "LINKS.route-acme.test",
      },
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as { id: number; domain: string; shortUrl: string };
    linkId = link.id;
    expect(link).toMatchObject({ domain: "links.route-acme.test", shortUrl: "https://links.route-acme.test/summer" });
    // Alice's link on the instance host only, and Bob's link under the same slug.
    await alice.call("/api/links", {
      method: "POST",
      json: {
        targetUrl: "https://acme.test/plain",
        title: "Plain",
        description: "Not on the domain",
        customLinkSlug: "plain",
      },
    });
    await bob.call("/api/links", {
      method: "POST",
      json: { targetUrl: "https://bob.test/", title: "Bob's", description: "Bob's link", customLinkSlug: "bobs" },
    });
  });

  test("a person is redirected, a crawler gets the card naming the address fetched, in every form of the host", async () => {
    for (const host of [
      "links.route-acme.test",
      "LINKS.Route-Acme.test",
      "links.route-acme.test.",
      "links.route-acme.test:443",
    ]) {
      const redirect = await onHost(host, "/summer", person);
      expect(redirect.status, host).toBe(302);
      expect(redirect.headers.get("location")).toBe("https://acme.test/summer");
      const card = await onHost(host, "/summer", facebook);
      expect(card.status).toBe(200);
      const html = await card.text();
      expect(meta(html, "og:url")).toBe("https://links.route-acme.test/summer");
      expect(canonical(html)).toBe("https://links.route-acme.test/summer");
      expect(meta(html, "og:title")).toBe("Summer sale");
    }
    const x = await (await onHost("links.route-acme.test", "/summer", twitter)).text();
    expect(x).toContain('content="Summer sale"');
  });

  test("views on the custom host count like /go: people and crawlers apart", async () => {
    await server.flushViews();
    const counts = (await server.sql.get<{ human: number; bot: number }>(
      "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS human, CAST(coalesce(sum(bot), 0) AS INTEGER) AS bot FROM view_rollups WHERE link_id = ?",
      linkId,
    ))!;
    expect(counts.human).toBeGreaterThanOrEqual(4);
    expect(counts.bot).toBeGreaterThanOrEqual(5);
  });

  test("root goes to rootUrl; an unknown slug, the owner's link not on the domain and another owner's link are all not found", async () => {
    // Every node's host map reloads on the announced change (on PostgreSQL through NOTIFY).
    await eventually(async () =>
      expect((await onHost("links.route-acme.test", "/", person)).headers.get("location")).toBe(
        "https://acme.test/home",
      ),
    );
    for (const path of [
      "/nope",
      "/plain",
      "/bobs",
      `/go/${bob.userSlug}/bobs`,
      `/go/${alice.userSlug}/plain`,
      "/admin",
      "/api/links",
    ]) {
      for (const agent of [person, facebook])
        expect((await onHost("links.route-acme.test", path, agent)).status, path).toBe(404);
    }
    await alice.call(`/api/domains/${aliceDomain.id}`, {
      method: "PATCH",
      json: { notFoundUrl: "https://acme.test/404" },
    });
    await eventually(async () => {
      const missing = await onHost("links.route-acme.test", "/bobs", person);
      expect(missing.status).toBe(302);
      expect(missing.headers.get("location")).toBe("https://acme.test/404");
    });
  });

  test("the service host keeps /go/{user}/{link} for every link; an unknown host serves no slug", async () => {
    const viaGo = await onHost("lp.example", `/go/${alice.userSlug}/summer`, person);
    expect(viaGo.status).toBe(302);
    expect(meta(await (await onHost("lp.example", `/go/${alice.userSlug}/summer`, facebook)).text(), "og:url")).toBe(
      `https://lp.example/go/${alice.userSlug}/summer`,
    );
    expect((await onHost("unknown.route-acme.test", "/summer", person)).status).toBe(404);
    expect((await onHost("links.route-acme.test.evil.test", "/summer", person)).status).toBe(404);
  });

  test("a pending domain serves nothing, and www. is a domain of its own", async () => {
    const pending = await add(alice, "pending.route-acme.test");
    await alice.call("/api/links", {
      method: "POST",
      json: {
        targetUrl: "https://acme.test/p",
        title: "P",
        description: "P",
        customLinkSlug: "on-pending",
        domain: pending.hostname,
      },
    });
    expect((await onHost("pending.route-acme.test", "/on-pending", person)).status).toBe(404);
    expect((await onHost("www.links.route-acme.test", "/summer", person)).status).toBe(404);
    expect((await ask("pending.route-acme.test")).status).toBe(403);
  });

  test("a domain is removed only once no live link uses it", async () => {
    const refused = await alice.call(`/api/domains/${aliceDomain.id}`, { method: "DELETE" });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(/1 link uses this domain/);
  });

  test("a link names only its owner's domains", async () => {
    const response = await bob.call("/api/links", {
      method: "POST",
      json: { targetUrl: "https://bob.test/x", title: "X", description: "X", domain: "links.route-acme.test" },
    });
    expect(response.status).toBe(400);
  });
});

describe("the TLS ask listener", () => {
  test("200 only for a served domain, as stored; 403 for anything else; no DNS asked", async () => {
    const owner = await apiClient(server, null);
    await verifiedDomain(owner, "ask.ask-acme.test");
    const before = dns.questions;
    expect((await ask("ask.ask-acme.test")).status).toBe(200);
    for (const name of [
      "",
      "ASK.ask-acme.test.",
      "unknown.ask-acme.test",
      "lp.example",
      "127.0.0.1",
      "www.ask.ask-acme.test",
      "ask.ask-acme.test.evil",
    ])
      expect((await ask(name)).status, name).toBe(403);
    expect((await fetch(`${server.askUrl}/tls/ask`)).status).toBe(403);
    expect(dns.questions).toBe(before);
    // Not on the public port.
    expect((await fetch(`${server.url}/tls/ask?domain=ask.ask-acme.test`)).status).toBe(404);
  });

  test("account deletion stops serving its domains and frees them", async () => {
    const owner = await apiClient(server, null);
    await verifiedDomain(owner, "gone.ask-acme.test");
    const email = (await server.sql.get<{ email: string }>("SELECT email FROM users WHERE id = ?", owner.userId))!
      .email;
    const exported = (await (await owner.call("/api/account/export")).json()) as {
      domains: Array<{ hostname: string }>;
    };
    expect(exported.domains.map((d) => d.hostname)).toEqual(["gone.ask-acme.test"]);
    expect((await owner.call("/api/account", { method: "DELETE", json: { confirmEmail: email } })).status).toBe(204);
    await eventually(async () => expect((await ask("gone.ask-acme.test")).status).toBe(403));
    expect(
      (await server.sql.get<{ n: number }>(
        "SELECT CAST(count(*) AS INTEGER) AS n FROM domains WHERE hostname = ?",
        "gone.ask-acme.test",
      ))!.n,
    ).toBe(0);
  });
});

test("linkprev domains add, list, verify and remove, and links create --domain", async () => {
  const owner = await apiClient(server, null);
  const { token } = await seedApiToken(server.sql, owner.userId);
  const cli = join(import.meta.dir, "../../cli/linkprev.ts");
  const run = async (...args: string[]) => {
    const child = Bun.spawn([process.execPath, cli, ...args], {
      env: { ...process.env, LINKPREV_SERVER: server.url, LINKPREV_TOKEN: token, XDG_CONFIG_HOME: server.dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { stdout, stderr, code };
  };
  const added = await run("domains", "add", "Cli.Acme.test");
  expect(added.code).toBe(0);
  expect(added.stdout).toContain("Added cli.acme.test (pending)");
  expect(added.stdout).toMatch(/TXT\s+_linkprev\.cli\.acme\.test\s+linkprev-verify=/);
  expect(added.stdout).toMatch(new RegExp(`CNAME\\s+cli\\.acme\\.test\\s+${CNAME_TARGET.replaceAll(".", "\\.")}`));
  const domain = ((await (await owner.call("/api/domains")).json()) as { domains: DomainJson[] }).domains[0]!;
  publish(domain);
  const verified = await run("domains", "verify", "cli.acme.test");
  expect(verified).toMatchObject({ code: 0, stdout: expect.stringMatching(/^cli\.acme\.test: verified/) });
  expect((await run("domains", "list")).stdout).toMatch(/cli\.acme\.test\s+verified\s+0/);
  const created = await run(
    "links",
    "create",
    "--target",
    "https://acme.test/cli",
    "--title",
    "CLI",
    "--description",
    "From the CLI",
    "--slug",
    "from-cli",
    "--domain",
    "cli.acme.test",
  );
  expect(created).toMatchObject({ code: 0, stdout: "https://cli.acme.test/from-cli\n" });
  const refused = await run("domains", "remove", "cli.acme.test");
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/1 link uses this domain/);
});
