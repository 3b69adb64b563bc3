// Every address a person can be sent to passes the same checks, under one spelling of its host, and an operator's
// disable stays with the address (docs/decisions/0042). Both engines.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listAudit } from "../../src/safety/audit.ts";
import { blockHost } from "../../src/safety/host-blocks.ts";
import { changeLinkStatus } from "../../src/safety/link-status.ts";
import { eventually, isTrue } from "../helpers/eventually.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const PERSON = crawlerAgents.people[Object.keys(crawlerAgents.people)[0]!]!;
const valid = { title: "Card", description: "Text", targetUrl: "https://example.org/page" };

let server: TestServer;
let feedDir: string;
let lateFeed: string;
let alice: ApiClient;

type LinkJson = { id: number; status: string; disabledReason: string | null; targetUrl: string };
let made = 0;
/** A new link, by default to a site of its own (TARGET_HOST_LINKS_PER_HOUR is small here). */
const create = (client: ApiClient, fields: Record<string, unknown>) =>
  client.call("/api/links", {
    method: "POST",
    json: { ...valid, targetUrl: `https://site-${++made}.example/page`, ...fields },
  });
const linkJson = async (client: ApiClient, slug: string) =>
  (await (await client.call(`/api/links/by-slug/${slug}`)).json()) as LinkJson;
const messageOf = async (response: Response) => ((await response.json()) as { message: string }).message;
const personAt = (path: string) =>
  fetch(`${server.url}${path}`, { headers: { "user-agent": PERSON }, redirect: "manual" });

beforeAll(async () => {
  feedDir = mkdtempSync(join(tmpdir(), "linkprev-destinations-"));
  lateFeed = join(feedDir, "late-hosts.txt");
  writeFileSync(lateFeed, "# nothing listed yet\n");
  writeFileSync(join(feedDir, "hosts.txt"), "listed-host.example\nbücher-listed.example\n");
  server = await startTestServer({
    THREAT_FEEDS: [`hosts:${join(feedDir, "hosts.txt")}`, `openphish:${lateFeed}`].join(","),
    THREAT_FEEDS_EVERY_MS: "1000",
    TARGET_HOST_LINKS_PER_HOUR: "3",
  });
  alice = await apiClient(server, "pro", "alice");
});
afterAll(async () => {
  await server.close();
  rmSync(feedDir, { recursive: true, force: true });
});

describe("every destination passes the same checks", () => {
  test("a rule's target or an expired address on a listed host is a 422 naming the field; nothing is created", async () => {
    const rule = await create(alice, {
      customLinkSlug: "by-rule",
      rules: [{ when: { device: "ios" }, targetUrl: "https://app.listed-host.example/get" }],
    });
    expect(rule.status).toBe(422);
    expect(await messageOf(rule)).toBe(
      "rules.0.targetUrl: This target cannot be linked: the instance's host list lists the host listed-host.example as unsafe",
    );
    const expired = await create(alice, {
      customLinkSlug: "by-expiry",
      expiresAt: "2030-01-01T00:00:00Z",
      expiredUrl: "https://listed-host.example/over",
    });
    expect(expired.status).toBe(422);
    expect(await messageOf(expired)).toStartWith("expiredUrl: This target cannot be linked:");
    expect((await alice.call("/api/links/by-slug/by-rule")).status).toBe(404);
    // An edit too.
    expect((await create(alice, { customLinkSlug: "clean" })).status).toBe(201);
    const edit = await alice.call("/api/links/by-slug/clean", {
      method: "PUT",
      json: { ...valid, rules: [{ when: { country: "DE" }, targetUrl: "https://listed-host.example/de" }] },
    });
    expect(edit.status).toBe(422);
  });

  test("a custom domain's root or not-found address on a listed host is a 422 naming the field", async () => {
    const added = await alice.call("/api/domains", { method: "POST", json: { hostname: "links.alice.example" } });
    expect(added.status).toBe(201);
    const { id } = (await added.json()) as { id: number };
    for (const field of ["rootUrl", "notFoundUrl"]) {
      const response = await alice.call(`/api/domains/${id}`, {
        method: "PATCH",
        json: { [field]: "https://www.listed-host.example/" },
      });
      expect(response.status).toBe(422);
      expect(await messageOf(response)).toStartWith(`${field}: This target cannot be linked:`);
    }
    expect(
      (
        await alice.call(`/api/domains/${id}`, {
          method: "PATCH",
          json: { rootUrl: "https://root.turns-bad.example/", notFoundUrl: "https://alice.example/missing" },
        })
      ).status,
    ).toBe(200);
  });

  test("a refresh that lists a rule's target or an expired address disables the link; a domain's root address is removed", async () => {
    expect(
      (
        await create(alice, {
          customLinkSlug: "rule-later",
          rules: [{ when: { country: "FR" }, targetUrl: "https://fr.turns-bad.example/offre" }],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await create(alice, {
          customLinkSlug: "expiry-later",
          expiresAt: "2030-01-01T00:00:00Z",
          expiredUrl: "https://expired.turns-bad.example/",
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await create(alice, {
          customLinkSlug: "untouched",
          rules: [{ when: { country: "FR" }, targetUrl: "https://fr.example.net/" }],
        })
      ).status,
    ).toBe(201);
    writeFileSync(
      lateFeed,
      [
        "https://fr.turns-bad.example/offre",
        "https://expired.turns-bad.example/",
        "https://root.turns-bad.example/",
      ].join("\n") + "\n",
    );
    await eventually(
      async () => isTrue((await linkJson(alice, "rule-later")).status === "disabled", "the rule's link is disabled"),
      { what: "the refresh to disable the link" },
    );
    expect(await linkJson(alice, "rule-later")).toEqual(
      expect.objectContaining({ disabledReason: "Listed by OpenPhish" }),
    );
    expect((await linkJson(alice, "expiry-later")).status).toBe("disabled");
    expect((await linkJson(alice, "untouched")).status).toBe("active");
    const domains = (await (await alice.call("/api/domains")).json()) as {
      domains: Array<{ hostname: string; rootUrl: string | null; notFoundUrl: string | null }>;
    };
    expect(domains.domains.find((domain) => domain.hostname === "links.alice.example")).toEqual(
      expect.objectContaining({ rootUrl: null, notFoundUrl: "https://alice.example/missing" }),
    );
    const audit = (await listAudit(server.ctx.db)).map((row) => `${row.action} ${row.subject}: ${row.reason}`);
    expect(audit).toContain("domain.address.remove links.alice.example rootUrl: Listed by OpenPhish");
  });

  test("the inspect page lists every destination of a link; a password link's are not listed", async () => {
    const rules = [
      { when: { device: "android" }, targetUrl: "https://play.example.net/app" },
      { when: { country: "DE" }, targetUrl: "https://de.example.net/" },
    ];
    expect(
      (
        await create(alice, {
          customLinkSlug: "many",
          targetUrl: "https://many.example/",
          rules,
          expiresAt: "2030-01-01T00:00:00Z",
          expiredUrl: "https://example.net/over",
        })
      ).status,
    ).toBe(201);
    const html = await (await personAt("/go/alice/many+")).text();
    for (const text of [
      "https://many.example/",
      "Destination on android",
      "https://play.example.net/app",
      "Destination in DE",
      "https://de.example.net/",
      "Destination once expired or used up",
      "https://example.net/over",
    ])
      expect(html).toContain(text);
    expect((await create(alice, { customLinkSlug: "secret", rules, password: "open sesame" })).status).toBe(201);
    const locked = await (await personAt("/go/alice/secret+")).text();
    expect(locked).not.toContain("https://play.example.net/app");
  });
});

describe("one spelling of a host", () => {
  const spellings = (host: string) => [
    `https://${host}./x`,
    `https://${host}.:443/x`,
    `https://${host.toUpperCase()}/x`,
    `https://${host}../x`,
    `https://user@${host}./x`,
    `http://${host}.:80/x`,
  ];

  test("a listed host is refused however its name is spelled: trailing dot, :443, upper case, fullwidth, IDN", async () => {
    const forms = [
      ...spellings("listed-host.example"),
      ...spellings("deep.listed-host.example"),
      "https://ｌｉｓｔｅｄ－ｈｏｓｔ．ｅｘａｍｐｌｅ/x",
      "https://listed-host.example。/x",
      "https://BÜCHER-LISTED.example./x",
      `https://${new URL("https://bücher-listed.example").hostname}./x`,
    ];
    const accepted: string[] = [];
    for (const targetUrl of forms) {
      const response = await create(alice, { targetUrl });
      if (response.status !== 422) accepted.push(`${targetUrl} ${response.status}`);
      const rule = await create(alice, { rules: [{ when: { device: "ios" }, targetUrl }] });
      if (rule.status !== 422) accepted.push(`rule ${targetUrl} ${rule.status}`);
    }
    expect(accepted).toEqual([]);
  });

  test("targets are stored in the one spelling: lower case, IDN as punycode, no trailing dot or default port", async () => {
    expect(
      (await create(alice, { customLinkSlug: "spelled", targetUrl: "https://Shop.Example.ORG.:443/Cart#top" })).status,
    ).toBe(201);
    expect((await linkJson(alice, "spelled")).targetUrl).toBe("https://shop.example.org/Cart#top");
  });

  test("a host blocked later disables a link whose target was written with a trailing dot", async () => {
    const bob = await apiClient(server, "pro", "bob");
    expect(
      (await create(bob, { customLinkSlug: "dotted", targetUrl: "https://login.blocked-later.example./signin" }))
        .status,
    ).toBe(201);
    expect(await blockHost(server.ctx.safety, "blocked-later.example", "ops", "phishing kit")).toBe(1);
    expect((await linkJson(bob, "dotted")).status).toBe("disabled");
  });

  test("the per-host brake counts per registrable domain: subdomains, spellings and wildcard names are one host", async () => {
    const carol = await apiClient(server, "pro", "carol");
    for (const targetUrl of ["https://a.wild.example/", "https://b.wild.example./", "https://WILD.example:443/"])
      expect((await create(carol, { targetUrl })).status).toBe(201);
    const fourth = await create(carol, { targetUrl: "https://zz-123.wild.example/" });
    expect(fourth.status).toBe(429);
    expect(await messageOf(fourth)).toStartWith("You created 3 links to wild.example in the last hour (at most 3).");
    expect((await create(carol, { targetUrl: "https://other.example/" })).status).toBe(201);
  });
});

describe("an operator's disable sticks", () => {
  test("deleting a disabled link and making it again at the same address brings it back disabled, not live", async () => {
    const dan = await apiClient(server, "pro", "dan");
    expect((await create(dan, { customLinkSlug: "promo", targetUrl: "https://example.com/promo" })).status).toBe(201);
    const { id } = await linkJson(dan, "promo");
    await changeLinkStatus(
      server.ctx.safety,
      [id],
      { status: "disabled", reason: "Operator: scam", actor: "ops", why: "scam" },
      new Date(),
    );
    expect((await dan.call(`/api/links/${id}`, { method: "DELETE" })).status).toBe(204);
    const again = await create(dan, { customLinkSlug: "promo", targetUrl: "https://example.com/promo" });
    expect(again.status).toBe(201);
    expect(await linkJson(dan, "promo")).toEqual(
      expect.objectContaining({ status: "disabled", disabledReason: "Operator: scam" }),
    );
    await eventually(async () =>
      isTrue((await personAt("/go/dan/promo")).status === 200, "the warning page, not a redirect"),
    );
    // Renaming another link onto the address does not free it either; other addresses stay live.
    expect((await create(dan, { customLinkSlug: "other", targetUrl: "https://example.net/other" })).status).toBe(201);
    const { id: againId } = await linkJson(dan, "promo");
    expect((await dan.call(`/api/links/${againId}`, { method: "DELETE" })).status).toBe(204);
    expect(
      (
        await dan.call("/api/links/by-slug/other", {
          method: "PUT",
          json: { ...valid, targetUrl: "https://example.net/other", customLinkSlug: "promo" },
        })
      ).status,
    ).toBe(200);
    expect((await linkJson(dan, "promo")).status).toBe("disabled");
    expect((await create(dan, { customLinkSlug: "fresh", targetUrl: "https://example.com/promo" })).status).toBe(201);
    expect((await linkJson(dan, "fresh")).status).toBe("active");
  });

  test("a disabled link cannot be renamed, so renaming before deleting is no way around the disable either", async () => {
    const erin = await apiClient(server, "pro", "erin");
    expect((await create(erin, { customLinkSlug: "phish", targetUrl: "https://example.com/phish" })).status).toBe(201);
    const { id } = await linkJson(erin, "phish");
    await changeLinkStatus(
      server.ctx.safety,
      [id],
      { status: "disabled", reason: "Operator: phishing", actor: "ops", why: "phishing" },
      new Date(),
    );
    const rename = await erin.call("/api/links/by-slug/phish", {
      method: "PUT",
      json: { ...valid, targetUrl: "https://example.com/phish", customLinkSlug: "elsewhere" },
    });
    expect(rename.status).toBe(409);
    expect(await messageOf(rename)).toBe(
      "This link is disabled: it cannot be renamed or moved, its address is the operator's to release",
    );
    expect((await erin.call("/api/links/by-slug/elsewhere")).status).toBe(404);
    expect((await erin.call(`/api/links/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await create(erin, { customLinkSlug: "phish", targetUrl: "https://example.com/phish" })).status).toBe(201);
    expect(await linkJson(erin, "phish")).toEqual(
      expect.objectContaining({ status: "disabled", disabledReason: "Operator: phishing" }),
    );
    await eventually(async () =>
      isTrue((await personAt("/go/erin/phish")).status === 200, "the warning page, not a redirect"),
    );
  });

  test("a link renamed before it was disabled: deleting it drops its earlier addresses (410), none comes back live", async () => {
    const fay = await apiClient(server, "pro", "fay");
    expect((await create(fay, { customLinkSlug: "bait", targetUrl: "https://example.com/bait" })).status).toBe(201);
    const renamed = await fay.call("/api/links/by-slug/bait", {
      method: "PUT",
      json: { ...valid, targetUrl: "https://example.com/bait", customLinkSlug: "bait-2" },
    });
    expect(renamed.status).toBe(200);
    const { id } = await linkJson(fay, "bait-2");
    await changeLinkStatus(
      server.ctx.safety,
      [id],
      { status: "disabled", reason: "Operator: phishing", actor: "ops", why: "phishing" },
      new Date(),
    );
    expect((await fay.call(`/api/links/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await create(fay, { customLinkSlug: "bait", targetUrl: "https://example.com/bait" })).status).toBe(409);
    await eventually(async () =>
      isTrue((await personAt("/go/fay/bait")).status === 410, "the earlier address is gone"),
    );
  });
});
