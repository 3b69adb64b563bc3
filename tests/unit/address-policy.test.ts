// The address policy alone: which resolved addresses the safe fetcher may connect to.
import { expect, test } from "bun:test";
import { loadConfig } from "../../src/config/config.ts";
import { judgeAddress, parseCidrList } from "../../src/safe-fetch/address-policy.ts";

const refusedAs = (address: string, allow = "") => {
  const verdict = judgeAddress(address, parseCidrList(allow));
  return verdict.ok ? "allowed" : verdict.range;
};

test("public unicast addresses are allowed, IPv4 and IPv6", () => {
  for (const address of ["8.8.8.8", "93.184.215.14", "2606:4700::1111", "[2a00:1450:4001::200e]", "::ffff:8.8.8.8"])
    expect(refusedAs(address)).toBe("allowed");
});

test("every inside range is refused, named by its kind", () => {
  const cases: Record<string, string> = {
    "127.0.0.1": "loopback",
    "127.255.0.9": "loopback",
    "::1": "loopback",
    "10.1.2.3": "private",
    "172.16.0.1": "private",
    "192.168.1.1": "private",
    "169.254.169.254": "linkLocal",
    "fe80::1": "linkLocal",
    "100.64.0.1": "carrierGradeNat",
    "100.127.255.254": "carrierGradeNat",
    "fd00::1": "uniqueLocal",
    "fd00:ec2::254": "uniqueLocal",
    "64:ff9b::7f00:1": "rfc6052",
    "64:ff9b:1::a00:1": "rfc6052",
    "2002:7f00:1::": "6to4",
    "2001:0:4136:e378::1": "teredo",
    "224.0.0.1": "multicast",
    "ff02::1": "multicast",
    "0.0.0.0": "unspecified",
    "::": "unspecified",
    "255.255.255.255": "broadcast",
    "198.18.0.1": "reserved",
    "192.0.0.170": "reserved",
    "240.0.0.1": "reserved",
    "2001:db8::1": "reserved",
    "::7f00:1": "ipv4Compatible",
    "not-an-address": "invalid",
  };
  const seen = Object.fromEntries(Object.keys(cases).map((address) => [address, refusedAs(address)]));
  expect(seen).toEqual(cases);
});

test("an IPv4-mapped IPv6 address is judged as the IPv4 address it carries", () => {
  expect(refusedAs("::ffff:127.0.0.1")).toBe("loopback");
  expect(refusedAs("[::ffff:7f00:1]")).toBe("loopback");
  expect(refusedAs("::ffff:169.254.169.254")).toBe("linkLocal");
  expect(refusedAs("::ffff:10.0.0.1")).toBe("private");
  const verdict = judgeAddress("::ffff:8.8.8.8", []);
  expect(verdict).toEqual({ ok: true, address: "8.8.8.8", family: 4, allowed: false });
});

test("FETCH_ALLOW_PRIVATE lets exactly its ranges through, and marks them allowed (any port)", () => {
  expect(judgeAddress("127.0.0.1", parseCidrList("127.0.0.1/32"))).toEqual({
    ok: true,
    address: "127.0.0.1",
    family: 4,
    allowed: true,
  });
  expect(refusedAs("127.0.0.2", "127.0.0.1/32")).toBe("loopback");
  expect(refusedAs("10.20.30.40", "10.0.0.0/8, fd00::/8")).toBe("allowed");
  expect(refusedAs("fd12::1", "10.0.0.0/8, fd00::/8")).toBe("allowed");
  expect(refusedAs("192.168.0.1", "10.0.0.0/8, fd00::/8")).toBe("private");
});

test("a bad CIDR is named", () => {
  expect(() => parseCidrList("10.0.0.0/8, intranet")).toThrow(
    '"intranet" is not a CIDR such as 10.0.0.0/8 or fd00::/8',
  );
  expect(() => parseCidrList("10.0.0.0/33")).toThrow('"10.0.0.0/33"');
  expect(parseCidrList(" , ")).toEqual([]);
});

test("config: FETCH_ALLOW_PRIVATE is checked at start, FETCH_DISABLED turns fetching off, the deadline is 8 s", () => {
  expect(() => loadConfig({}, { FETCH_ALLOW_PRIVATE: "10.0.0.0/8,intranet" })).toThrow(
    'Invalid configuration: FETCH_ALLOW_PRIVATE="10.0.0.0/8,intranet": "intranet" is not a CIDR such as 10.0.0.0/8 or fd00::/8',
  );
  expect(loadConfig({}, {}).fetch).toEqual({ enabled: true, allowPrivate: [], deadlineMs: 8000 });
  expect(loadConfig({}, { FETCH_ALLOW_PRIVATE: " 10.0.0.0/8 , fd00::/8", FETCH_DISABLED: "true" }).fetch).toEqual({
    enabled: false,
    allowPrivate: ["10.0.0.0/8", "fd00::/8"],
    deadlineMs: 8000,
  });
});
