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
