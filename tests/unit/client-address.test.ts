// Whose address a request is (src/http/client-ip.ts): behind our proxy the right end of X-Forwarded-For, past the
// proxies TRUSTED_PROXIES names, never what a client wrote to the left; and the key limits count a client by.
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config/config.ts";
import { clientIp, proxyTrust, rateKey } from "../../src/http/client-ip.ts";

const socket = { requestIP: () => ({ address: "192.0.2.254", family: "IPv4" as const, port: 1 }) };
const from = (forwarded: string | null, trust: ReturnType<typeof proxyTrust>) =>
  clientIp(
    new Request("http://lp.test/", { headers: forwarded === null ? {} : { "x-forwarded-for": forwarded } }),
    socket,
    trust,
  );

describe("the client's address", () => {
  test("without TRUST_PROXY the socket's, whatever X-Forwarded-For says", () => {
    expect(from("198.51.100.1", proxyTrust(false, []))).toBe("192.0.2.254");
  });

  test("behind our proxy the hop it appended (the last), not one the client wrote", () => {
    const trust = proxyTrust(true, []);
    expect(from("198.51.100.1", trust)).toBe("198.51.100.1");
    expect(from("10.0.0.1, 6.6.6.6 ,198.51.100.1", trust)).toBe("198.51.100.1");
    expect(from(null, trust)).toBe("192.0.2.254");
    expect(from(" , ", trust)).toBe("192.0.2.254");
    expect(from(",,,", trust)).toBe("192.0.2.254");
  });

  test("TRUSTED_PROXIES' hops are skipped from the right; the first other one is the client's", () => {
    const trust = proxyTrust(true, ["203.0.113.0/24", "2001:db8:cd::/48"]);
    expect(from("6.6.6.6, 198.51.100.1, 203.0.113.7", trust)).toBe("198.51.100.1");
    expect(from("6.6.6.6, 198.51.100.1, 2001:db8:cd::9, 203.0.113.7", trust)).toBe("198.51.100.1");
    // A client that writes a trusted proxy's address gets no further than its own.
    expect(from("203.0.113.1, 198.51.100.1, 203.0.113.7", trust)).toBe("198.51.100.1");
    // Only proxies: the leftmost is all there is.
    expect(from("203.0.113.1, 203.0.113.7", trust)).toBe("203.0.113.1");
  });

  test("TRUSTED_PROXIES is checked at start", () => {
    expect(loadConfig({ TRUST_PROXY: "true", TRUSTED_PROXIES: "203.0.113.0/24, fd00::/8" }).trustedProxies).toEqual([
      "203.0.113.0/24",
      "fd00::/8",
    ]);
    expect(() => loadConfig({ TRUSTED_PROXIES: "203.0.113.0/33" })).toThrow(ConfigError);
  });
});

describe("the key a limit counts", () => {
  test.each([
    ["198.51.100.7", "198.51.100.7"],
    ["::ffff:198.51.100.7", "198.51.100.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["not an address", "not an address"],
  ])("%s → %s", (address, key) => expect(rateKey(address)).toBe(key));
});
