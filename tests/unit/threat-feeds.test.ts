// The threat feeds as their publishers write them (tests/fixtures/threat-feeds/: BOM, comments, quoting, blank
// and broken lines), and how an entry covers a target: exact URLs, hosts and their subdomains, never a parent,
// a sibling or a whole public suffix; IDN hosts in either spelling.
import { describe, expect, test } from "bun:test";
import { parseFeedList } from "../../src/safety/feeds/formats.ts";
import { parseHostList } from "../../src/safety/feeds/hosts.ts";
import { parseUrlList } from "../../src/safety/feeds/openphish.ts";
import { parsePhishtank } from "../../src/safety/feeds/phishtank.ts";
import { parseUrlhaus } from "../../src/safety/feeds/urlhaus.ts";
import { covers, domainOf, hostEntry, normaliseUrl, urlEntry, type ThreatEntry } from "../../src/safety/matching.ts";

const fixture = (name: string) => Bun.file(new URL(`../fixtures/threat-feeds/${name}`, import.meta.url)).text();

/** Whether any of `entries` covers `target`, looked up as the database does: by registrable domain. */
function listed(entries: ThreatEntry[], target: string): boolean {
  const url = normaliseUrl(target);
  if (!url) return false;
  const host = new URL(url).hostname;
  return entries.some((entry) => entry.domain === domainOf(host) && covers(entry, url, host));
}

describe("feed formats", () => {
  test("URLhaus CSV: # header lines, a BOM, quoted fields with commas and doubled quotes, a blank line; broken rows skipped with a note", async () => {
    const { entries, skipped } = parseUrlhaus(await fixture("urlhaus.csv"));
    expect(entries.map((entry) => entry.value)).toEqual([
      "http://185.215.113.66/bins/sora.arm7",
      "https://cdn-update.dropfile-share.top/invoice_2026.zip",
      "http://docs-viewer.sites.googlegroups-mail.com/view.php?id=88,12",
      "https://raw.githubusercontent.com/evil-user-9/payloads/main/stage2.ps1",
      "http://45.61.137.10:8080/Mozi.m",
    ]);
    expect(entries.every((entry) => entry.kind === "url")).toBe(true);
    expect(skipped.length).toBe(2);
    expect(skipped.join("\n")).toContain("not a url at all");
  });

  test("PhishTank JSON: a BOM, an entry without a url skipped; a file that is not JSON fails whole", async () => {
    const { entries, skipped } = parsePhishtank(await fixture("phishtank.json"));
    expect(entries.map((entry) => entry.value)).toEqual([
      "https://secure-paypa1-login.com/webapps/signin?country=US",
      "https://microsoft-365-verify.web.app/owa/auth.html",
      "http://xn--pple-43d.com/id/verify",
      "https://sites.google.com/view/dhl-parcel-redelivery-77/home",
    ]);
    expect(skipped).toHaveLength(1);
    expect(() => parsePhishtank("<html>rate limited</html>")).toThrow();
  });

  test("OpenPhish text: one URL per line, trimmed; blank lines ignored; a non-http line skipped", async () => {
    const { entries, skipped } = parseUrlList(await fixture("openphish.txt"));
    expect(entries).toHaveLength(6);
    expect(entries.at(-1)!.value).toBe("https://steamcommunlty.co.uk/tradeoffer/new/?partner=1");
    expect(skipped).toEqual([expect.stringContaining("ftp://not-http.example.org/file")]);
  });

  test("host list: plain hosts and hosts-file lines; public suffixes and non-hosts skipped; IDN kept as punycode", async () => {
    const { entries, skipped } = parseHostList(await fixture("hosts.txt"));
    expect(entries.map((entry) => entry.value)).toEqual([
      "evil-login.github.io",
      "phish.example.co.uk",
      "malware-cdn.com.au",
      new URL("http://верификация-банк.рф").hostname,
      "paypal-secure.xn--80ak6aa92e.com",
      "secure-update.blogspot.com",
    ]);
    expect(entries.every((entry) => entry.kind === "host")).toBe(true);
    expect(skipped.map((note) => note.replace(/^line \d+: /, ""))).toEqual([
      '"co.uk"',
      '"github.io"',
      '"not a host/with a path"',
    ]);
  });

  test("THREAT_FEEDS names each feed by format; a second feed of one format gets its own source; a bad item is refused", () => {
    expect(parseFeedList("urlhaus:/feeds/u.csv, hosts:https://example.org/h.txt,hosts:/etc/more")).toEqual([
      { source: "urlhaus", format: "urlhaus", location: "/feeds/u.csv" },
      { source: "hosts", format: "hosts", location: "https://example.org/h.txt" },
      { source: "hosts-2", format: "hosts", location: "/etc/more" },
    ]);
    expect(() => parseFeedList("csv:/x")).toThrow("start with urlhaus:");
    expect(() => parseFeedList("hosts:")).toThrow("name a file");
  });
});

describe("matching", () => {
  const evilHost = hostEntry("evil.example.co.uk")!;
  const exact = urlEntry("https://Phish.Example.com/login?next=1#top")!;

  test("a URL entry blocks that URL only (normalised: host case, fragment), not its host or other paths", () => {
    expect(listed([exact], "https://phish.example.com/login?next=1")).toBe(true);
    expect(listed([exact], "https://PHISH.example.com/login?next=1#other")).toBe(true);
    expect(listed([exact], "https://phish.example.com/")).toBe(false);
    expect(listed([exact], "https://phish.example.com/login?next=2")).toBe(false);
  });

  test("a host entry blocks the host and its subdomains, never its parent or siblings", () => {
    expect(listed([evilHost], "https://evil.example.co.uk/")).toBe(true);
    expect(listed([evilHost], "http://a.b.evil.example.co.uk/x")).toBe(true);
    expect(listed([evilHost], "https://example.co.uk/")).toBe(false);
    expect(listed([evilHost], "https://www.example.co.uk/")).toBe(false);
    expect(listed([evilHost], "https://notevil.example.co.uk/")).toBe(false);
    expect(listed([evilHost], "https://www.bbc.co.uk/news")).toBe(false);
  });

  test("public suffixes stay apart: nothing blocks co.uk, com.au or github.io whole, and a *.github.io site is its own domain", () => {
    for (const suffix of ["co.uk", "com.au", "github.io", "blogspot.com", "vercel.app"])
      expect(hostEntry(suffix)).toBeNull();
    const pages = hostEntry("evil-login.github.io")!;
    expect(pages.domain).toBe("evil-login.github.io");
    expect(listed([pages], "https://evil-login.github.io/wallet")).toBe(true);
    expect(listed([pages], "https://facebook.github.io/react-native/")).toBe(false);
    expect(listed([pages], "https://github.io/")).toBe(false);
    expect(domainOf("shop.example.com.au")).toBe("example.com.au");
  });

  test("IDN: an entry in Unicode covers the punycode spelling and back; a look-alike never covers the real name", () => {
    const lookalike = hostEntry("аpple.com")!; // Cyrillic а
    expect(lookalike.value).toBe("xn--pple-43d.com");
    expect(listed([lookalike], "https://xn--pple-43d.com/id")).toBe(true);
    expect(listed([lookalike], "https://аpple.com/id")).toBe(true);
    expect(listed([lookalike], "https://apple.com/")).toBe(false);
    expect(listed([hostEntry("münchen.de")!], "https://xn--mnchen-3ya.de/rathaus")).toBe(true);
  });
});

test("no false positives: 1,000+ benign real-world URLs pass with every sample feed loaded", async () => {
  const entries = [
    ...parseUrlhaus(await fixture("urlhaus.csv")).entries,
    ...parsePhishtank(await fixture("phishtank.json")).entries,
    ...parseUrlList(await fixture("openphish.txt")).entries,
    ...parseHostList(await fixture("hosts.txt")).entries,
  ];
  const benign = (await Bun.file(new URL("../fixtures/benign-urls.txt", import.meta.url)).text())
    .split("\n")
    .filter((line) => line && !line.startsWith("#"));
  expect(benign.length).toBeGreaterThanOrEqual(1000);
  expect(benign.filter((url) => listed(entries, url))).toEqual([]);
  // The feeds do bite: each sample's entries are listed.
  expect(entries.filter((entry) => entry.kind === "url").every((entry) => listed(entries, entry.value))).toBe(true);
});
