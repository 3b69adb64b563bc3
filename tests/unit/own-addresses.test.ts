// "Does this URL lead back to this instance?" alone: the check that keeps links from looping through this server.
import { describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config/config.ts";
import { ownAddresses, parseAliasHosts } from "../../src/links/own-addresses.ts";

const behindProxy = ownAddresses({
  publicUrl: "https://links.example.com",
  aliasHosts: ["lp.example.org", "intranet-box:8443"],
  port: 3000,
  listenHost: "0.0.0.0",
});
const leads = (url: string, check = behindProxy) => check(new URL(url));

describe("loopback names reach this instance on its listening port only", () => {
  const onPort = [
    "http://localhost:3000/go/a/b",
    "http://LOCALHOST.:3000/go/a/b",
    "http://app.localhost:3000/",
    "http://127.0.0.1:3000/go/a/b",
    "http://127.1.2.3:3000/",
    "http://127.1:3000/",
    "http://2130706433:3000/",
    "http://0x7f.0.0.1:3000/",
    "http://0177.0.0.1:3000/",
    "http://[::1]:3000/",
    "http://[0:0:0:0:0:0:0:1]:3000/",
    "http://[::ffff:127.0.0.1]:3000/",
    "http://0.0.0.0:3000/",
    "http://0:3000/",
    "http://[::]:3000/",
    "http://user:secret@localhost:3000/go/a/b",
    "https://localhost:3000/",
  ];
  for (const url of onPort) test(`${url} leads here`, () => expect(leads(url)).toBe(true));

  const otherPorts = [
    "http://localhost:8080/",
    "http://127.0.0.1:3001/go/a/b",
    "http://[::1]/",
    "http://2130706433/",
    "http://localhost/",
  ];
  for (const url of otherPorts) test(`${url} is another service`, () => expect(leads(url)).toBe(false));
});

describe("the public name and the aliases", () => {
  const here = [
    "https://links.example.com/go/a/b",
    "https://LINKS.example.com./go/a/b",
    "http://links.example.com/go/a/b",
    "https://links.example.com:443/",
    "http://links.example.com:3000/",
    "https://someone:pw@links.example.com/",
    "https://lp.example.org/go/a/b",
    "http://lp.example.org:9999/",
    "https://LP.EXAMPLE.ORG./",
    "https://intranet-box:8443/",
  ];
  for (const url of here) test(`${url} leads here`, () => expect(leads(url)).toBe(true));

  const elsewhere = [
    "https://links.example.com:8443/",
    "https://intranet-box/",
    "https://example.com/",
    "https://links.example.com.evil.test/",
    "https://notlinks.example.com/",
  ];
  for (const url of elsewhere) test(`${url} is elsewhere`, () => expect(leads(url)).toBe(false));
});

test("a public URL with a port: that host and port, and the listening port", () => {
  const check = ownAddresses({ publicUrl: "http://127.0.0.1:4000", aliasHosts: [], port: 4000 });
  expect(leads("http://localhost:4000/go/a/b", check)).toBe(true);
  expect(leads("http://127.0.0.1:4000/go/a/b", check)).toBe(true);
  expect(leads("http://127.0.0.1:4001/", check)).toBe(false);
  expect(leads("http://127.0.0.1/", check)).toBe(false);
});

test("a specific listening address is a name of this instance on its port", () => {
  const check = ownAddresses({
    publicUrl: "https://links.example.com",
    aliasHosts: [],
    port: 3000,
    listenHost: "10.0.0.5",
  });
  expect(leads("http://10.0.0.5:3000/go/a/b", check)).toBe(true);
  expect(leads("http://10.0.0.5:3001/", check)).toBe(false);
  const v6 = ownAddresses({
    publicUrl: "https://links.example.com",
    aliasHosts: [],
    port: 3000,
    listenHost: "fd00::5",
  });
  expect(leads("http://[fd00::5]:3000/", v6)).toBe(true);
});

test("ALIAS_HOSTS: names and host:port, validated once in the configuration", () => {
  expect(parseAliasHosts(" a.example , b.example:8080,,[fd00::1]:3000 ")).toEqual([
    "a.example",
    "b.example:8080",
    "[fd00::1]:3000",
  ]);
  expect(parseAliasHosts("")).toEqual([]);
  expect(loadConfig({}, { ALIAS_HOSTS: "a.example, b.example:80" }).aliasHosts).toEqual(["a.example", "b.example:80"]);
  expect(
    leads(
      "https://b.example/",
      ownAddresses({ publicUrl: "https://x.test", aliasHosts: ["b.example:80"], port: 3000 }),
    ),
  ).toBe(false);
  expect(
    leads("http://b.example/", ownAddresses({ publicUrl: "https://x.test", aliasHosts: ["b.example:80"], port: 3000 })),
  ).toBe(true);
  for (const bad of ["https://a.example", "a.example/path", "user@a.example", "a b", "a.example:99999"]) {
    expect(() => loadConfig({}, { ALIAS_HOSTS: bad })).toThrow(/ALIAS_HOSTS=.*is not a host name/);
  }
});
