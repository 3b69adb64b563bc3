// App links on a verified custom domain (docs/decisions/0060), over real HTTP on SQLite and PostgreSQL: the
// domain's Apple app-site-association and Android asset-links documents, set through PATCH /api/domains/{id},
// answer at exactly their /.well-known/ paths on that host, byte-exact, as application/json, with no redirect.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { TestClock } from "../helpers/clock.ts";
import { eventually } from "../helpers/eventually.ts";
import { startDnsServer, type TestDnsServer } from "../helpers/dns-server.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let dns: TestDnsServer;
let alice: ApiClient;
let bob: ApiClient;
let domainId: number;
const clock = new TestClock(Date.parse("2026-12-07T12:00:00Z"));
const CNAME_TARGET = "edge.lp.example";
const HOST = "links.applinks-acme.test";
const person = crawlerAgents.people["chrome-windows"]!;
const AASA_PATH = "/.well-known/apple-app-site-association";
const ASSET_LINKS_PATH = "/.well-known/assetlinks.json";

const FINGERPRINT = Array.from({ length: 32 }, (_, i) => i.toString(16).toUpperCase().padStart(2, "0")).join(":");
/** As a person would paste them: indented their own way, a tab, a non-ASCII comment, key order kept. */
const AASA = `{
  "applinks": {
\t"details": [
      { "appIDs": ["ABCDE12345.com.acme.app"], "components": [{ "/": "/summer*", "comment": "Été — soldes" }] },
      { "appID": "ABCDE12345.com.acme.legacy", "paths": ["/summer*", "NOT /private/*"] }
    ]
  },
  "webcredentials": { "apps": ["ABCDE12345.com.acme.app"] }
}
`;
const ASSET_LINKS = `[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.acme.app","sha256_cert_fingerprints":["${FINGERPRINT}"]}}]`;

/** A request to the custom host. */
const onHost = (path: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, {
    redirect: "manual",
    ...init,
    headers: { host: HOST, "user-agent": person, ...init.headers },
  });
const patch = (json: Record<string, unknown>, owner = alice) =>
  owner.call(`/api/domains/${domainId}`, { method: "PATCH", json });

beforeAll(async () => {
  dns = await startDnsServer();
  server = await startTestServer(
    {
      PUBLIC_URL: "https://lp.example",
      DNS_SERVERS: dns.address,
      DOMAIN_CNAME_TARGET: CNAME_TARGET,
      TLS_ASK_PORT: "0",
    },
    clock,
  );
  alice = await apiClient(server, null);
  bob = await apiClient(server, null);
  const added = await alice.call("/api/domains", { method: "POST", json: { hostname: HOST } });
  const domain = (await added.json()) as { id: number; verification: { txtName: string; txtValue: string } };
  domainId = domain.id;
  dns.zone.set(domain.verification.txtName, { txt: [[domain.verification.txtValue]] });
  dns.zone.set(HOST, { cname: CNAME_TARGET });
  const verified = await alice.call(`/api/domains/${domain.id}/verify`, { method: "POST" });
  expect(((await verified.json()) as { status: string }).status).toBe("verified");
  await eventually(async () => expect((await fetch(`${server.askUrl}/tls/ask?domain=${HOST}`)).status).toBe(200));
  // Unknown addresses redirect: the documents' paths must not.
  expect((await patch({ notFoundUrl: "https://acme.test/404" })).status).toBe(200);
});
afterAll(async () => {
  await server.close();
  dns.close();
});

describe("app-link documents on a custom host", () => {
  test("unset: a plain 404 at both paths, not the domain's not-found redirect", async () => {
    await eventually(async () => expect((await onHost("/nothing-here")).status).toBe(302));
    for (const path of [AASA_PATH, ASSET_LINKS_PATH]) {
      const response = await onHost(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("location"), path).toBeNull();
    }
  });

  test("set through PATCH: answered byte-exact as application/json, no redirect, GET and HEAD", async () => {
    const response = await patch({ appleAppSiteAssociation: AASA, assetLinks: ASSET_LINKS });
    expect(response.status).toBe(200);
    const domain = (await response.json()) as { appleAppSiteAssociation: string; assetLinks: string };
    expect(domain.appleAppSiteAssociation).toBe(AASA);
    expect(domain.assetLinks).toBe(ASSET_LINKS);
    for (const [path, text] of [
      [AASA_PATH, AASA],
      [ASSET_LINKS_PATH, ASSET_LINKS],
    ] as const) {
      const expected = new TextEncoder().encode(text);
      await eventually(async () => expect((await onHost(path)).status).toBe(200));
      const got = await onHost(path);
      expect(got.status, path).toBe(200);
      expect(got.headers.get("content-type"), path).toBe("application/json");
      expect(got.headers.get("location"), path).toBeNull();
      expect(new Uint8Array(await got.arrayBuffer()), path).toEqual(expected);
      // A crawler (Apple's and Google's fetchers among them) gets the same bytes.
      const asCrawler = await onHost(path, { headers: { "user-agent": "AASA-Bot/1.0.0" } });
      expect(new Uint8Array(await asCrawler.arrayBuffer()), path).toEqual(expected);
      const head = await onHost(path, { method: "HEAD" });
      expect(head.status, path).toBe(200);
      expect(head.headers.get("content-type"), path).toBe("application/json");
      expect(head.headers.get("content-length"), path).toBe(String(expected.byteLength));
      expect((await onHost(path, { method: "POST" })).status, path).toBe(405);
    }
  });

  test("only the exact paths: other spellings are the domain's unknown addresses", async () => {
    for (const path of [
      `${AASA_PATH}.json`,
      `${ASSET_LINKS_PATH}/`,
      "/.well-known/ASSETLINKS.json",
      "/assetlinks.json",
    ]) {
      const response = await onHost(path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("location"), path).toBe("https://acme.test/404");
    }
  });

  test("not on the app's own host, and not on another account's domain", async () => {
    const response = await fetch(`${server.url}${ASSET_LINKS_PATH}`, { redirect: "manual" });
    expect(response.status).not.toBe(200);
    expect(await response.text()).not.toContain("com.acme.app");
    expect((await patch({ assetLinks: null }, bob)).status).toBe(404);
  });

  test("invalid documents are refused with the field and the place named; nothing stored", async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ appleAppSiteAssociation: "{not json" }, "appleAppSiteAssociation: must be JSON"],
      [{ appleAppSiteAssociation: "{}" }, "appleAppSiteAssociation: applinks is required (at applinks)"],
      [
        { appleAppSiteAssociation: '{"applinks":{"details":[{"appIDs":["ABCDE12345.com.acme.app"]}]}}' },
        "appleAppSiteAssociation: each detail needs appIDs with components, or appID with paths (at applinks.details.0)",
      ],
      [
        { appleAppSiteAssociation: '{"applinks":{"details":[{"appID":"com.acme.app","paths":["/"]}]}}' },
        "appleAppSiteAssociation: must be TEAMID.bundle.id (at applinks.details.0.appID)",
      ],
      [{ assetLinks: "{}" }, "assetLinks: must be a list of statements"],
      [{ assetLinks: "[]" }, "assetLinks: must hold at least one statement"],
      [
        { assetLinks: ASSET_LINKS.replace(FINGERPRINT, FINGERPRINT.toLowerCase()) },
        "assetLinks: must be a SHA-256 fingerprint (32 upper-case hex pairs with colons) (at 0.target.sha256_cert_fingerprints.0)",
      ],
      [
        { assetLinks: ASSET_LINKS.replace("android_app", "web") },
        "assetLinks: namespace must be android_app (at 0.target.namespace)",
      ],
      [{ assetLinks: 42 }, "assetLinks: Invalid input: expected string, received number"],
      [
        { assetLinks: `[${Array(1000).fill(ASSET_LINKS.slice(1, -1)).join(",")}]` },
        "assetLinks: must be at most 128 KB",
      ],
    ];
    for (const [body, message] of refused) {
      const response = await patch(body);
      expect(response.status, message).toBe(400);
      expect(((await response.json()) as { message: string }).message).toBe(message);
    }
    const stored = (await (await alice.call(`/api/domains/${domainId}`)).json()) as {
      appleAppSiteAssociation: string;
      assetLinks: string;
    };
    expect([stored.appleAppSiteAssociation, stored.assetLinks]).toEqual([AASA, ASSET_LINKS]);
  });

  test("null removes a document; the other stays", async () => {
    expect((await patch({ appleAppSiteAssociation: null })).status).toBe(200);
    await eventually(async () => expect((await onHost(AASA_PATH)).status).toBe(404));
    expect(await (await onHost(ASSET_LINKS_PATH)).text()).toBe(ASSET_LINKS);
  });
});

describe("a device rule that opens an app, through the custom host", () => {
  const APP = "acme://sale/summer?from=link";
  const STORE_IOS = "https://apps.apple.com/app/acme/id123456";
  const STORE_ANDROID = "https://play.google.com/store/apps/details?id=com.acme.app";
  const INTENT = `intent://sale/summer?from=link#Intent;scheme=acme;S.browser_fallback_url=${encodeURIComponent(STORE_ANDROID)};end`;
  const agents = {
    iphone: crawlerAgents.people["safari-iphone"]!,
    android: crawlerAgents.people["chrome-android"]!,
    facebookIphone: crawlerAgents.people["facebook-app-iphone"]!,
    instagramIphone:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 307.0.0.34.111 (iPhone15,2; iOS 17_1; en_US; en; scale=3.00; 1179x2556; 532277962)",
    facebookAndroid:
      "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/442.0.0.33.113;]",
    tiktokAndroid:
      "Mozilla/5.0 (Linux; Android 12; Pixel 6 Build/SQ3A.220705.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/119.0.0.0 Mobile Safari/537.36 trill_320404 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/32.4.4 ByteLocale/en BytedanceWebview/d8a21c6",
    linkedinIphone:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.8962",
  };
  let link: { id: number };
  const as = (userAgent: string) => onHost("/app-sale", { headers: { "user-agent": userAgent } });
  const humanViews = async () => {
    await server.flushViews();
    return (await server.sql.get<{ n: number }>(
      "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS n FROM view_rollups WHERE link_id = ?",
      link.id,
    ))!.n;
  };

  beforeAll(async () => {
    const created = await alice.call("/api/links", {
      method: "POST",
      json: {
        targetUrl: "https://acme.test/sale",
        title: "Acme sale",
        description: "In the app",
        customLinkSlug: "app-sale",
        domain: HOST,
        rules: [
          { when: { device: "ios" }, appUrl: APP, targetUrl: STORE_IOS },
          { when: { device: "android" }, appUrl: APP, targetUrl: STORE_ANDROID },
        ],
      },
    });
    expect(created.status).toBe(201);
    link = (await created.json()) as { id: number };
  });

  test("Android: the app's intent, with the store as the browser's fallback", async () => {
    const response = await as(agents.android);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(INTENT);
  });

  test("iPhone Safari: a page that tries the app at once and keeps the store at hand", async () => {
    const response = await as(agents.iphone);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const html = await response.text();
    expect(html).toContain('<meta http-equiv="refresh" content="0;url=acme://sale/summer?from=link">');
    expect(html).toContain('<a class="app" href="acme://sale/summer?from=link">Open in the app</a>');
    expect(html).toContain(`href="${STORE_IOS}"`);
    expect(html).not.toContain("<script");
  });

  test("in-app browsers (Instagram, Facebook, TikTok, LinkedIn): the Open in the app page, no automatic try", async () => {
    for (const [name, userAgent, open, fallback] of [
      ["instagram", agents.instagramIphone, APP, STORE_IOS],
      ["facebook ios", agents.facebookIphone, APP, STORE_IOS],
      ["linkedin", agents.linkedinIphone, APP, STORE_IOS],
      ["facebook android", agents.facebookAndroid, INTENT, STORE_ANDROID],
      ["tiktok", agents.tiktokAndroid, INTENT, STORE_ANDROID],
    ] as const) {
      const response = await as(userAgent);
      expect(response.status, name).toBe(200);
      const html = await response.text();
      expect(html, name).toContain("Open in the app");
      expect(html, name).toContain(`href="${open.replaceAll("&", "&amp;")}"`);
      expect(html, name).toContain(`href="${fallback.replaceAll("&", "&amp;")}"`);
      expect(html, name).not.toContain('http-equiv="refresh"');
    }
  });

  test("desktop people go to the link's target; crawlers still get the card; people's views are counted", async () => {
    const before = await humanViews();
    const desktop = await as(person);
    expect(desktop.status).toBe(302);
    expect(desktop.headers.get("location")).toBe("https://acme.test/sale");
    for (const crawler of [
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "Twitterbot/1.0",
    ]) {
      const card = await as(crawler);
      expect(card.status, crawler).toBe(200);
      const html = await card.text();
      expect(html, crawler).toContain('<meta property="og:title" content="Acme sale">');
      expect(html, crawler).not.toContain("acme://");
    }
    await as(agents.iphone);
    await as(agents.android);
    await as(agents.instagramIphone);
    expect(await humanViews()).toBe(before + 4);
  });

  test("app URLs: a custom scheme only, on an ios or android device rule; the fallback is checked as any target", async () => {
    const refused: Array<[Record<string, unknown>, string]> = [
      [{ appUrl: "javascript:alert(1)" }, "rules.0.appUrl: javascript: is not an app scheme"],
      [{ appUrl: "JavaScript:alert(1)" }, "rules.0.appUrl: javascript: is not an app scheme"],
      [{ appUrl: "data:text/html,<b>hi</b>" }, "rules.0.appUrl: data: is not an app scheme"],
      [{ appUrl: "file:///etc/passwd" }, "rules.0.appUrl: file: is not an app scheme"],
      [{ appUrl: "vbscript:msgbox" }, "rules.0.appUrl: vbscript: is not an app scheme"],
      [{ appUrl: "intent://x#Intent;end" }, "rules.0.appUrl: intent: is not an app scheme"],
      [{ appUrl: "https://acme.test/app" }, "rules.0.appUrl: https: is not an app scheme"],
      [{ appUrl: "java\tscript:alert(1)" }, "rules.0.appUrl: must be an app URL like myapp://path"],
      [
        { appUrl: 'acme://x"><script>' },
        "rules.0.appUrl: must not hold spaces, quotes, angle brackets, backslashes or #",
      ],
      [{ appUrl: "acme://x#frag" }, "rules.0.appUrl: must not hold spaces, quotes, angle brackets, backslashes or #"],
      [{ when: { device: "desktop" } }, "rules.0.appUrl: only a device rule for ios or android opens an app"],
      [{ when: { country: "DE" } }, "rules.0.appUrl: only a device rule for ios or android opens an app"],
      [{ targetUrl: "acme://fallback" }, "rules.0.targetUrl: must be a valid http(s) URL"],
      [
        { targetUrl: `https://${HOST}/app-sale` },
        "rules.0.targetUrl: cannot be a LinkPrev short URL or another address of this server",
      ],
    ];
    for (const [change, message] of refused) {
      const rule = { when: { device: "ios" }, appUrl: APP, targetUrl: STORE_IOS, ...change };
      const response = await alice.call("/api/links", {
        method: "POST",
        json: { targetUrl: "https://acme.test/x", title: "x", description: "x", rules: [rule] },
      });
      expect(response.status, message).toBe(400);
      expect(((await response.json()) as { message: string }).message, message).toBe(message);
    }
  });
});
