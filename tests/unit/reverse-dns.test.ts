// Forward-confirmed reverse DNS of crawlers (docs/decisions/0072), against the loopback DNS server answering PTR and
// A/AAAA records, never the network: the name must be in the platform's domain and lead back to the address; a
// batch never waits on the lookup, and the address's later views carry its answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { udpResolver } from "../../src/safe-fetch/dns-resolver.ts";
import { ReverseDnsCheck, reverseNameOf } from "../../src/views/reverse-dns.ts";
import { verifyBatch, VERIFICATION } from "../../src/views/crawler-verification.ts";
import { ViewBatchBuilder } from "../../src/views/view-batch.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";

let dns: TestDnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  // Documentation addresses: in no crawler list, so only reverse DNS can verify them.
  dns.zone.set(reverseNameOf("203.0.113.7"), { ptr: ["crawl-203-0-113-7.googlebot.com"] });
  dns.zone.set("crawl-203-0-113-7.googlebot.com", { a: ["203.0.113.7"] });
  // The name is Google's but leads elsewhere: someone's own PTR record.
  dns.zone.set(reverseNameOf("203.0.113.8"), { ptr: ["crawl-66-249-66-1.googlebot.com"] });
  dns.zone.set("crawl-66-249-66-1.googlebot.com", { a: ["66.249.66.1"] });
  // A name in another domain that does lead back.
  dns.zone.set(reverseNameOf("203.0.113.9"), { ptr: ["googlebot.com.example.net"] });
  dns.zone.set("googlebot.com.example.net", { a: ["203.0.113.9"] });
  dns.zone.set(reverseNameOf("2001:db8::7"), { ptr: ["msnbot-2001-db8--7.search.msn.com"] });
  dns.zone.set("msnbot-2001-db8--7.search.msn.com", { aaaa: ["2001:db8:0:0:0:0:0:7"] });
  dns.zone.set(reverseNameOf("203.0.113.10"), { ptr: ["slackbot.slack.com"] });
  dns.zone.set("slackbot.slack.com", { a: ["203.0.113.10"] });
});
afterAll(() => dns.close());

const check = () => new ReverseDnsCheck(udpResolver([dns.address], 2000), () => 0);

/** The answer once the lookup the first question started has come back. */
async function settledAnswer(rdns: ReverseDnsCheck, platform: string, address: string) {
  expect(rdns.confirmed(platform, address)).toBeNull();
  await rdns.settled();
  return rdns.confirmed(platform, address);
}

describe("ReverseDnsCheck", () => {
  test("reverse names of IPv4 and IPv6 addresses", () => {
    expect(reverseNameOf("203.0.113.7")).toBe("7.113.0.203.in-addr.arpa");
    expect(reverseNameOf("2001:db8::7")).toBe(`7.${"0.".repeat(23)}8.b.d.0.1.0.0.2.ip6.arpa`);
  });

  test("a Google name that leads back to the address confirms it, for Google only", async () => {
    const rdns = check();
    expect(await settledAnswer(rdns, "google", "203.0.113.7")).toBe(true);
    expect(rdns.confirmed("bing", "203.0.113.7")).toBe(false);
  });

  test("a Google name whose forward records are another address does not", async () => {
    expect(await settledAnswer(check(), "google", "203.0.113.8")).toBe(false);
  });

  test("a name in another domain does not", async () => {
    expect(await settledAnswer(check(), "google", "203.0.113.9")).toBe(false);
  });

  test("Bing over IPv6: search.msn.com and an AAAA record", async () => {
    expect(await settledAnswer(check(), "bing", "2001:db8::7")).toBe(true);
  });

  test("Slack documents no such check: a slack.com name verifies nothing, and is not asked", async () => {
    const asked = dns.questions;
    expect(check().confirmed("slack", "203.0.113.10")).toBe(false);
    expect(dns.questions).toBe(asked);
  });

  test("an answer is asked once and remembered until it expires", async () => {
    let now = 0;
    const rdns = new ReverseDnsCheck(udpResolver([dns.address], 2000), () => now);
    await settledAnswer(rdns, "google", "203.0.113.7");
    const asked = dns.questions;
    expect(rdns.confirmed("google", "203.0.113.7")).toBe(true);
    expect(dns.questions).toBe(asked);
    now = 86_400_001;
    expect(rdns.confirmed("google", "203.0.113.7")).toBeNull();
    await rdns.settled();
    expect(dns.questions).toBe(asked + 2);
  });
});

describe("verifyBatch with reverse DNS", () => {
  const googlebot = (address: string) => ({
    linkId: 1,
    userId: 1,
    attribution: null,
    scan: false,
    at: 0,
    version: 1,
    status: 200,
    bytes: 900,
    ms: 1,
    isBot: true,
    platform: "google",
    address,
    userAgent: "Googlebot/2.1 (+http://www.google.com/bot.html)",
    rendition: "wide",
  });

  test("the first fetch is recorded as the list says; the address's later fetches as DNS confirmed", async () => {
    const rdns = check();
    const first = new ViewBatchBuilder();
    first.add(googlebot("203.0.113.7"));
    first.add(googlebot("203.0.113.8"));
    const { batch } = first.take();
    verifyBatch(batch, rdns);
    expect([...batch.verification.subarray(0, batch.size)].map((code) => VERIFICATION[code])).toEqual([
      "unverified",
      "unverified",
    ]);
    await rdns.settled();
    const later = new ViewBatchBuilder();
    later.add(googlebot("203.0.113.7"));
    later.add(googlebot("203.0.113.8"));
    const { batch: next } = later.take();
    verifyBatch(next, rdns);
    expect([...next.verification.subarray(0, next.size)].map((code) => VERIFICATION[code])).toEqual([
      "verified",
      "unverified",
    ]);
  });
});
