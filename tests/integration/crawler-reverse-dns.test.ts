// Forward-confirmed reverse DNS over real HTTP, on SQLite and PostgreSQL (docs/decisions/0072): behind a trusted
// proxy, Googlebot fetches from addresses outside Google's list, whose PTR and A records the loopback DNS server
// answers (never the network). The first fetch from an address is recorded as the list says while the writer looks
// it up; its later fetches are verified when the name is Google's and leads back to it, never otherwise. Serving is
// the same card throughout.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { reverseNameOf } from "../../src/views/reverse-dns.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { eventually } from "../helpers/eventually.ts";
import {
  apiClient,
  crawlerAgents,
  seedLink,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let dns: TestDnsServer;
let server: TestServer;
let owner: ApiClient;
let linkId: number;
const GOOGLEBOT = crawlerAgents.crawlers.google![0]!;
/** Documentation addresses, in no crawler list: Google's name leading back; Google's name leading elsewhere; another domain. */
const CONFIRMED = "203.0.113.7";
const FORWARD_ELSEWHERE = "203.0.113.8";
const OTHER_DOMAIN = "203.0.113.9";

const go = (from: string) =>
  fetch(`${server.url}/go/owner/shared`, {
    redirect: "manual",
    headers: { "user-agent": GOOGLEBOT, "x-forwarded-for": from },
  }).then(async (response) => ({ status: response.status, card: (await response.text()).includes("Spring launch") }));

type Fetch = { verification: string; platform: string };
const newestFetches = async (limit: number) =>
  ((await (await owner.call(`/api/links/${linkId}/fetches?limit=${limit}`)).json()) as { items: Fetch[] }).items;

beforeAll(async () => {
  dns = await startDnsServer();
  dns.zone.set(reverseNameOf(CONFIRMED), { ptr: ["crawl-203-0-113-7.googlebot.com"] });
  dns.zone.set("crawl-203-0-113-7.googlebot.com", { a: [CONFIRMED] });
  dns.zone.set(reverseNameOf(FORWARD_ELSEWHERE), { ptr: ["crawl-66-249-66-1.googlebot.com"] });
  dns.zone.set("crawl-66-249-66-1.googlebot.com", { a: ["66.249.66.1"] });
  dns.zone.set(reverseNameOf(OTHER_DOMAIN), { ptr: ["crawl.example.net"] });
  dns.zone.set("crawl.example.net", { a: [OTHER_DOMAIN] });
  server = await startTestServer({ TRUST_PROXY: "1", CRAWLER_RDNS: "on", DNS_SERVERS: dns.address });
  owner = await apiClient(server, "pro", "owner");
  linkId = await seedLink(server.sql, owner.userId, { linkSlug: "shared", title: "Spring launch" });
});
afterAll(async () => {
  await server.close();
  dns.close();
});

test("a Googlebot whose reverse name is Google's and leads back is verified from its next fetch; the others never", async () => {
  for (const from of [CONFIRMED, FORWARD_ELSEWHERE, OTHER_DOMAIN])
    expect(await go(from)).toEqual({ status: 200, card: true });
  await server.flushViews();
  // Recorded as the list says: the lookups had not answered when the batch was stored.
  expect((await newestFetches(3)).map((f) => f.verification)).toEqual(["unverified", "unverified", "unverified"]);

  let fetches = 3;
  await eventually(
    async () => {
      expect(await go(CONFIRMED)).toEqual({ status: 200, card: true });
      fetches++;
      await server.flushViews();
      expect((await newestFetches(1))[0]).toEqual(expect.objectContaining({ verification: "verified" }));
    },
    { what: "the confirmed address's fetch to be verified" },
  );
  // Both lookups have answered by now (all three were asked at once, and one answer is in).
  await eventually(() => expect(dns.questions).toBeGreaterThanOrEqual(5), { what: "the other two lookups" });
  for (const from of [FORWARD_ELSEWHERE, OTHER_DOMAIN]) expect(await go(from)).toEqual({ status: 200, card: true });
  fetches += 2;
  await server.flushViews();
  expect((await newestFetches(2)).map((f) => f.verification)).toEqual(["unverified", "unverified"]);

  const platforms = (await (await owner.call(`/api/links/${linkId}/platforms`)).json()) as {
    platforms: Array<{ platform: string; fetches: number; verified: number; unverified: number }>;
  };
  expect(platforms.platforms.find((p) => p.platform === "google")).toEqual(
    expect.objectContaining({ fetches, verified: 1, unverified: fetches - 1 }),
  );
});
