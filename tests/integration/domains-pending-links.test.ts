// A newcomer's first custom domain, on SQLite and PostgreSQL (LINKPREV_TEST_DB=postgres), with neither
// DOMAIN_CNAME_TARGET nor DOMAIN_ADDRESSES set: the records name PUBLIC_URL's host, an apex flattened to it
// verifies, and a link placed on the domain before it is verified is shared at its service address meanwhile.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/config.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { apiClient, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let dns: TestDnsServer;
const PUBLIC_HOST = "lp-first.example";
const PUBLIC_ADDRESS = "203.0.113.40";

beforeAll(async () => {
  dns = await startDnsServer();
  dns.zone.set(PUBLIC_HOST, { a: [PUBLIC_ADDRESS] });
  server = await startTestServer({ PUBLIC_URL: `https://${PUBLIC_HOST}`, DNS_SERVERS: dns.address });
});
afterAll(async () => {
  await server.close();
  dns.close();
});

type DomainJson = {
  id: number;
  hostname: string;
  status: string;
  verification: { txtName: string; txtValue: string };
  records: Array<{ type: string; name: string; value: string }>;
};
type LinkJson = {
  linkSlug: string;
  domain: string | null;
  awaitingDomain: string | null;
  shortUrl: string;
  currentShortUrl: string;
};

test("with neither setting, owners point at PUBLIC_URL's host (or its address), and an apex flattened to it verifies", async () => {
  expect(loadConfig({}, { PUBLIC_URL: "https://links.acme.test" }).domains).toMatchObject({
    cnameTarget: "links.acme.test",
    addresses: [],
  });
  expect(loadConfig({}, { PUBLIC_URL: "http://198.51.100.4:8080" }).domains).toMatchObject({
    cnameTarget: null,
    addresses: ["198.51.100.4"],
  });
  const owner = await apiClient(server, null);
  const sub = (await (
    await owner.call("/api/domains", { method: "POST", json: { hostname: "go.first-acme.test" } })
  ).json()) as DomainJson;
  expect(sub.records[1]).toEqual({ type: "CNAME", name: "go.first-acme.test", value: PUBLIC_HOST });
  const apex = (await (
    await owner.call("/api/domains", { method: "POST", json: { hostname: "first-acme.test" } })
  ).json()) as DomainJson;
  expect(apex.records[1]).toEqual({ type: "CNAME", name: "first-acme.test", value: PUBLIC_HOST });
  // The DNS provider flattens the apex's CNAME: it answers the target's own address.
  dns.zone.set(apex.verification.txtName, { txt: [[apex.verification.txtValue]] });
  dns.zone.set("first-acme.test", { a: [PUBLIC_ADDRESS] });
  const checked = (await (await owner.call(`/api/domains/${apex.id}/verify`, { method: "POST" })).json()) as DomainJson;
  expect(checked.status).toBe("verified");
});

test("a link on a pending domain is shared at its service address and says it waits; verified, at the domain's", async () => {
  const owner = await apiClient(server, null);
  const domain = (await (
    await owner.call("/api/domains", { method: "POST", json: { hostname: "links.wait-acme.test" } })
  ).json()) as DomainJson;
  const created = await owner.call("/api/links", {
    method: "POST",
    json: {
      targetUrl: "https://acme.test/w",
      title: "W",
      description: "W",
      customLinkSlug: "waits",
      domain: domain.hostname,
    },
  });
  expect(created.status).toBe(201);
  const service = `https://${PUBLIC_HOST}/go/${owner.userSlug}/waits`;
  expect((await created.json()) as LinkJson).toMatchObject({
    domain: "links.wait-acme.test",
    awaitingDomain: "links.wait-acme.test",
    shortUrl: service,
    currentShortUrl: service,
  });
  const listed = ((await (await owner.call("/api/links")).json()) as LinkJson[]).find(
    (link) => link.linkSlug === "waits",
  )!;
  expect(listed).toMatchObject({ awaitingDomain: "links.wait-acme.test", shortUrl: service });

  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(domain.hostname, { cname: PUBLIC_HOST });
  expect(
    ((await (await owner.call(`/api/domains/${domain.id}/verify`, { method: "POST" })).json()) as DomainJson).status,
  ).toBe("verified");
  const verified = (await (await owner.call("/api/links/by-slug/waits")).json()) as LinkJson;
  expect(verified).toMatchObject({ awaitingDomain: null, shortUrl: "https://links.wait-acme.test/waits" });
});
