// Verification by network over real HTTP, on SQLite and PostgreSQL (docs/decisions/0066): behind a trusted proxy
// the client address is X-Forwarded-For's, so each fetch comes "from" an address of a published list, an
// autonomous system, or elsewhere. What the owner sees: each platform's verified, unverified and unverifiable
// fetches in GET /api/links/:id/platforms, the fetch record (GET /api/links/:id/fetches), the dashboard and the
// statistics CSV; a browser from X's network is X's check, not a person; serving is the same whoever is verified.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  apiClient,
  crawlerAgents,
  seedLink,
  seedSession,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let owner: ApiClient;
let cookie: string;
let linkId: number;

const agent = (platform: string) => crawlerAgents.crawlers[platform]![0]!;
const APPLEBOT =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)";
const BROWSER = crawlerAgents.people["safari-mac"]!;
/** A home broadband address: nobody's crawler network. */
const ELSEWHERE = "81.2.69.142";

/** Each fetch: who it claims to be, from where, and what the record says of it. */
const FETCHES: Array<{ as: string; ua: string; from: string; platform: string; verification: string }> = [
  {
    as: "Googlebot, Google's list",
    ua: agent("google"),
    from: "66.249.66.1",
    platform: "google",
    verification: "verified",
  },
  { as: "Googlebot, forged", ua: agent("google"), from: ELSEWHERE, platform: "google", verification: "unverified" },
  { as: "Bingbot, Bing's list", ua: agent("bing"), from: "157.55.39.7", platform: "bing", verification: "verified" },
  { as: "Applebot, Apple's list", ua: APPLEBOT, from: "17.241.219.8", platform: "apple", verification: "verified" },
  { as: "Applebot, forged", ua: APPLEBOT, from: "3.5.140.2", platform: "apple", verification: "unverified" },
  {
    as: "Telegram, its list",
    ua: agent("telegram"),
    from: "149.154.161.1",
    platform: "telegram",
    verification: "verified",
  },
  {
    as: "Facebook, Meta's AS",
    ua: agent("facebook"),
    from: "31.13.24.1",
    platform: "facebook",
    verification: "verified",
  },
  {
    as: "meta-externalagent, Meta's AS",
    ua: crawlerAgents.crawlers.facebook![1]!,
    from: "2a03:2880:f1ff::1",
    platform: "facebook",
    verification: "verified",
  },
  {
    as: "WhatsApp, Meta's AS",
    ua: agent("whatsapp"),
    from: "69.171.250.10",
    platform: "whatsapp",
    verification: "verified",
  },
  { as: "WhatsApp, forged", ua: agent("whatsapp"), from: ELSEWHERE, platform: "whatsapp", verification: "unverified" },
  { as: "Twitterbot, X's AS", ua: agent("x"), from: "199.16.156.1", platform: "x", verification: "verified" },
  { as: "Twitterbot, forged", ua: agent("x"), from: ELSEWHERE, platform: "x", verification: "unverified" },
  {
    as: "LinkedInBot, LinkedIn's AS",
    ua: agent("linkedin"),
    from: "108.174.1.1",
    platform: "linkedin",
    verification: "verified",
  },
  {
    as: "LinkedInBot, forged",
    ua: agent("linkedin"),
    from: ELSEWHERE,
    platform: "linkedin",
    verification: "unverified",
  },
  {
    as: "iMessage, a phone",
    ua: agent("imessage"),
    from: ELSEWHERE,
    platform: "imessage",
    verification: "unverifiable",
  },
  { as: "Slack, a cloud", ua: agent("slack"), from: "3.5.140.2", platform: "slack", verification: "unverifiable" },
];

const go = (ua: string, from: string) =>
  fetch(`${server.url}/go/owner/shared`, {
    redirect: "manual",
    headers: { "user-agent": ua, "x-forwarded-for": from },
  }).then(async (response) => ({ status: response.status, body: await response.text() }));

beforeAll(async () => {
  // Behind a proxy: the client address is X-Forwarded-For's last hop (docs/verification.md, TRUSTED_PROXIES).
  server = await startTestServer({ TRUST_PROXY: "1", PUBLIC_URL: "https://lp.example" });
  owner = await apiClient(server, "pro", "owner");
  cookie = `lp_session=${(await seedSession(server.sql, owner.userId)).token}`;
  linkId = await seedLink(server.sql, owner.userId, { linkSlug: "shared", title: "Spring launch" });
  for (const fetch of FETCHES) {
    const answer = await go(fetch.ua, fetch.from);
    // Serving never depends on verification: a forged Twitterbot gets the same card as X's.
    expect({ as: fetch.as, status: answer.status, card: answer.body.includes("Spring launch") }).toEqual({
      as: fetch.as,
      status: 200,
      card: true,
    });
  }
  // X's link check with a browser's User-Agent from its own network, and a person, and curl: the 302 each.
  expect((await go(BROWSER, "104.244.42.1")).status).toBe(302);
  expect((await go(BROWSER, ELSEWHERE)).status).toBe(302);
  expect((await go("curl/8.5.0", "199.16.156.1")).status).toBe(302);
  await server.flushViews();
});
afterAll(() => server.close());

type Counts = { fetches: number; verified: number; unverified: number; unverifiable: number };
const expected = (platform: string, extra: Partial<Counts> = {}): Counts => {
  const of = FETCHES.filter((f) => f.platform === platform);
  const n = (v: string) => of.filter((f) => f.verification === v).length;
  const counts = { verified: n("verified"), unverified: n("unverified"), unverifiable: n("unverifiable") };
  const more = { verified: extra.verified ?? 0, unverified: 0, unverifiable: 0 };
  return {
    fetches: of.length + (extra.fetches ?? 0),
    verified: counts.verified + more.verified,
    unverified: counts.unverified,
    unverifiable: counts.unverifiable,
  };
};

describe("GET /api/links/:id/platforms", () => {
  test("each platform's and search engine's fetches by verification; other bots under their kind", async () => {
    const response = await owner.call(`/api/links/${linkId}/platforms`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      platforms: Array<Counts & { platform: string }>;
      bots: Array<Counts & { kind: string }>;
    };
    const of = (platform: string) => {
      const p = body.platforms.find((x) => x.platform === platform)!;
      return { fetches: p.fetches, verified: p.verified, unverified: p.unverified, unverifiable: p.unverifiable };
    };
    // X: its verified bot, the forged one, and its browser-looking check from its network.
    expect(of("x")).toEqual(expected("x", { fetches: 1, verified: 1 }));
    for (const platform of [
      "facebook",
      "whatsapp",
      "linkedin",
      "telegram",
      "imessage",
      "slack",
      "google",
      "bing",
      "apple",
    ])
      expect({ platform, ...of(platform) }).toEqual({ platform, ...expected(platform) });
    const bot = (kind: string) => {
      const b = body.bots.find((x) => x.kind === kind);
      return b && { fetches: b.fetches, verified: b.verified, unverified: b.unverified, unverifiable: b.unverifiable };
    };
    // curl from X's network is a tool sent on with the 302: counted under its kind, never verified.
    expect(bot("tool")).toEqual({ fetches: 1, verified: 0, unverified: 0, unverifiable: 0 });
  });

  test("the person stays a person: one human view, not X's check", async () => {
    const link = (await (await owner.call(`/api/links/by-slug/shared`)).json()) as {
      viewsHuman: number;
      viewsBot: number;
    };
    expect(link).toMatchObject({ viewsHuman: 1, viewsBot: FETCHES.length + 2 });
  });
});

describe("GET /api/links/:id/fetches", () => {
  test("every crawler fetch on record, newest first, page by page", async () => {
    const seen: Array<{ platform: string; verification: string; rendition: string | null; status: number }> = [];
    let cursor: string | null = null;
    do {
      const response = await owner.call(`/api/links/${linkId}/fetches?limit=5${cursor ? `&cursor=${cursor}` : ""}`);
      expect(response.status).toBe(200);
      const page = (await response.json()) as {
        items: Array<(typeof seen)[number] & { bytes: number; version: number; at: string }>;
        nextCursor: string | null;
      };
      expect(page.items.length).toBeLessThanOrEqual(5);
      for (const item of page.items) {
        expect(item.version).toBe(1);
        if (item.status === 200) expect(item.bytes).toBeGreaterThan(500);
        seen.push({
          platform: item.platform,
          verification: item.verification,
          rendition: item.rendition,
          status: item.status,
        });
      }
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(
      [
        ...FETCHES.map((f) => ({ platform: f.platform, verification: f.verification, status: 200 })),
        { platform: "x", verification: "verified", status: 302 },
      ]
        .map((f) => ({ ...f, rendition: f.status === 200 ? expect.any(String) : null }))
        .reverse(),
    );
  });

  test("a cursor that is not one is a 400; another user's link a 404", async () => {
    const bad = await owner.call(`/api/links/${linkId}/fetches?cursor=abc`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain("cursor");
    const stranger = await apiClient(server, "pro");
    expect((await stranger.call(`/api/links/${linkId}/fetches`)).status).toBe(404);
  });
});

describe("the dashboard and the statistics", () => {
  const page = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { cookie } })).text();

  test("the dashboard shows verified and unverified fetches apart", async () => {
    const html = await page("/admin");
    expect(html).toContain("X 3 (2 verified, 1 unverified)");
    expect(html).toContain("LinkedIn 2 (1 verified, 1 unverified)");
  });

  test("the link's page shows each fetch on a timeline, newest first, with its verification", async () => {
    const html = await page("/admin/link/edit/shared");
    const timeline = html.slice(html.indexOf('data-testid="fetch-timeline"'), html.indexOf("</ol>"));
    const lines = [...timeline.matchAll(/<li[^>]*>([^<]*)<\/li>/g)].map((m) => m[1]!.replaceAll("&#x27;", "'"));
    expect(lines).toHaveLength(FETCHES.length + 1);
    expect(lines[0]).toMatch(
      /^X, verified by its network, fetched version 1 at \d{4}-\d\d-\d\d \d\d:\d\d UTC: checked the link \(302/,
    );
    expect(lines.at(-1)).toMatch(
      /^Google, verified by its network, fetched version 1 at .+ UTC: wide image, \d+ B page$/,
    );
    expect(lines).toContainEqual(expect.stringMatching(/^X, unverified: not from its platform's network, .*: x image/));
    expect(lines).toContainEqual(expect.stringMatching(/^WhatsApp, verified by its network, .*: square image/));
    expect(lines).toContainEqual(expect.stringMatching(/^iMessage, unverifiable, /));
  });

  test("the platforms CSV has verified, unverified and unverifiable columns", async () => {
    const csv = (await page("/admin/link/stats/shared/csv?range=7&table=platforms"))
      .trimEnd()
      .split("\r\n")
      .map((line) => line.split(",").map((cell) => cell.replace(/^"|"$/g, "")));
    expect(csv[0]).toEqual(["Platform", "Card fetches", "Verified", "Unverified", "Unverifiable"]);
    const row = (name: string) => csv.find((r) => r[0] === name);
    expect(row("X")).toEqual(["X", "3", "2", "1", "0"]);
    expect(row("Google")).toEqual(["Google", "2", "1", "1", "0"]);
    expect(row("iMessage")).toEqual(["iMessage", "1", "0", "0", "1"]);
  });
});
