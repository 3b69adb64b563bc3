// Verification by network, method by method (docs/decisions/0066): an address from each published list and each
// autonomous system checks out for its platform, the same User-Agent from elsewhere does not, platforms without a
// method are unverifiable, and a browser from a platform's network is that platform's fetch.
import { describe, expect, test } from "bun:test";
import { networkOf } from "../../src/views/crawler-networks.ts";
import { verificationOf, verifyBatch, VERIFICATION } from "../../src/views/crawler-verification.ts";
import { ViewBatchBuilder } from "../../src/views/view-batch.ts";

/** Addresses inside each network's data (official/*.txt, and the AS prefixes of networks.txt). */
const FROM = {
  google: ["66.249.66.1", "192.178.6.200", "2001:4860:4801:10::1"],
  bing: ["157.55.39.7", "40.77.167.20"],
  apple: ["17.241.219.8", "17.22.237.1"],
  telegram: ["149.154.161.1", "91.108.8.1", "2001:67c:4e8::5"],
  meta: ["31.13.24.1", "69.171.250.10", "2a03:2880:f1ff::1"],
  x: ["199.16.156.1", "104.244.42.1"],
  linkedin: ["108.174.1.1", "144.2.9.20"],
} as const;
/** A home broadband address, a cloud provider's, and one a forger would use. */
const ELSEWHERE = ["81.2.69.142", "3.5.140.2", "2a01:4f8::1"];

describe("networkOf", () => {
  for (const [network, addresses] of Object.entries(FROM))
    test(`${network}'s addresses are in ${network}`, () => {
      for (const address of addresses) expect(networkOf(address)).toBe(network as keyof typeof FROM);
    });
  test("other addresses, loopback, an IPv4-mapped address of Meta and rubbish", () => {
    for (const address of [...ELSEWHERE, "127.0.0.1", "::1", "", "not-an-address"])
      expect(networkOf(address)).toBeNull();
    expect(networkOf("::ffff:31.13.24.1")).toBe("meta");
  });
});

describe("verificationOf, per method", () => {
  const cases: Array<[string, readonly string[]]> = [
    ["google", FROM.google],
    ["bing", FROM.bing],
    ["apple", FROM.apple],
    ["telegram", FROM.telegram],
    ["facebook", FROM.meta],
    ["whatsapp", FROM.meta],
    ["instagram", FROM.meta],
    ["x", FROM.x],
    ["linkedin", FROM.linkedin],
  ];
  for (const [platform, addresses] of cases) {
    test(`${platform}: verified from its network, unverified from elsewhere`, () => {
      for (const address of addresses) expect(verificationOf(platform, address)).toBe("verified");
      for (const address of ELSEWHERE) expect(verificationOf(platform, address)).toBe("unverified");
    });
  }
  test("a platform claimed from another platform's network is unverified (Twitterbot from Meta)", () => {
    expect(verificationOf("x", FROM.meta[0])).toBe("unverified");
    expect(verificationOf("google", FROM.bing[0])).toBe("unverified");
  });
  test("iMessage, Slack, Discord and the rest are unverifiable wherever they come from", () => {
    for (const platform of ["imessage", "slack", "discord", "mastodon", "bluesky"])
      for (const address of [...ELSEWHERE, FROM.meta[0]])
        expect(verificationOf(platform, address)).toBe("unverifiable");
  });
});

describe("verifyBatch", () => {
  const view = {
    linkId: 1,
    userId: 1,
    attribution: null,
    scan: false,
    at: 0,
    version: 2,
    status: 200,
    bytes: 900,
    ms: 1,
  };
  test("card fetchers get their verification; a browser from X's or Meta's network becomes their fetch; people stay", () => {
    const builder = new ViewBatchBuilder();
    builder.add({
      ...view,
      isBot: true,
      platform: "x",
      address: FROM.x[0],
      userAgent: "Twitterbot/1.0",
      rendition: "x",
    });
    builder.add({
      ...view,
      isBot: true,
      platform: "x",
      address: ELSEWHERE[0]!,
      userAgent: "Twitterbot/1.0",
      rendition: "x",
    });
    builder.add({
      ...view,
      isBot: true,
      platform: "imessage",
      address: ELSEWHERE[0]!,
      userAgent: "facebookexternalhit/1.1 Facebot Twitterbot/1.0",
      rendition: "wide",
    });
    const browser = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15";
    builder.add({
      ...view,
      isBot: false,
      platform: null,
      address: FROM.x[1],
      userAgent: browser,
      scan: true,
      status: 302,
    });
    builder.add({ ...view, isBot: false, platform: null, address: FROM.meta[1], userAgent: browser, status: 302 });
    builder.add({ ...view, isBot: false, platform: null, address: ELSEWHERE[0]!, userAgent: browser, status: 302 });
    builder.add({ ...view, isBot: true, platform: "tool", address: FROM.x[0], userAgent: "curl/8.5.0", status: 302 });
    const { batch } = builder.take();
    verifyBatch(batch);
    const got = Array.from({ length: batch.size }, (_, i) => ({
      verification: VERIFICATION[batch.verification[i]!],
      isBot: batch.isBot[i],
      platform: batch.platform[i]! < 0 ? null : batch.strings[batch.platform[i]!],
      scan: batch.scan[i],
    }));
    expect(got).toEqual([
      { verification: "verified", isBot: 1, platform: "x", scan: 0 },
      { verification: "unverified", isBot: 1, platform: "x", scan: 0 },
      { verification: "unverifiable", isBot: 1, platform: "imessage", scan: 0 },
      { verification: "verified", isBot: 1, platform: "x", scan: 0 },
      { verification: "verified", isBot: 1, platform: "facebook", scan: 0 },
      { verification: null, isBot: 0, platform: null, scan: 0 },
      { verification: null, isBot: 1, platform: "tool", scan: 0 },
    ]);
  });
});
