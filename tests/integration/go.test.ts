// The /go short URL as crawlers and people meet it, over real HTTP against a real database (SQLite or PostgreSQL).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { crawlerAgents, seedLink, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
let owner: { id: number; userSlug: string };
let linkId: number;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://lp.example" });
  owner = await seedUser(server.sql, { userSlug: "alice" });
  linkId = await seedLink(server.sql, owner.id, {
    linkSlug: "launch",
    targetUrl: "https://example.com/launch?ref=1",
    title: "Our launch",
    description: "Everything about the launch",
    imageUrl: "/uploads/launch.webp",
  });
  await server.sql.run("UPDATE links SET image_width = 1200, image_height = 630 WHERE id = ?", linkId);
});
afterAll(() => server.close());

const go = (path: string, userAgent: string, init: RequestInit = {}) =>
  fetch(`${server.url}${path}`, { redirect: "manual", ...init, headers: { "user-agent": userAgent, ...init.headers } });

function metaContent(html: string, key: string): string | null {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[:]/g, "\\:")}" content="([^"]*)">`).exec(html);
  return match ? match[1]! : null;
}

const views = async () =>
  (await server.sql.get<{ human: number; bot: number }>(
    "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS human, CAST(coalesce(sum(bot), 0) AS INTEGER) AS bot FROM view_rollups WHERE link_id = ?",
    linkId,
  ))!;
const viewCount = async () =>
  (await server.sql.get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM views"))!.n;

describe("crawlers get the preview page", () => {
  const required: Array<[string, string]> = [
    ["facebook", "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)"],
    ["x", "Twitterbot/1.0"],
    ["linkedin", "LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)"],
    ["slack", "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"],
    ["discord", "Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)"],
    ["whatsapp", "WhatsApp/2.23.20.0"],
    ["telegram", "TelegramBot (like TwitterBot)"],
  ];
  for (const [platform, agent] of required) {
    test(`${platform}: ${agent}`, async () => {
      const response = await go("/go/alice/launch", agent);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toContain("text/html");
      expect(response.headers.get("x-robots-tag")).toBe("noindex");
      const html = await response.text();
      expect(html).toContain("<title>Our launch</title>");
      expect(metaContent(html, "description")).toBe("Everything about the launch");
      expect(metaContent(html, "og:title")).toBe("Our launch");
      expect(metaContent(html, "og:description")).toBe("Everything about the launch");
      expect(metaContent(html, "og:image")).toBe("https://lp.example/uploads/launch.webp");
      expect(metaContent(html, "og:image:width")).toBe("1200");
      expect(metaContent(html, "og:image:height")).toBe("630");
      expect(metaContent(html, "og:url")).toBe("https://lp.example/go/alice/launch");
      expect(metaContent(html, "og:type")).toBe("website");
      expect(metaContent(html, "og:site_name")).toBe("LinkPrev");
      expect(metaContent(html, "twitter:card")).toBe("summary_large_image");
      expect(metaContent(html, "twitter:title")).toBe("Our launch");
      expect(metaContent(html, "twitter:description")).toBe("Everything about the launch");
      expect(metaContent(html, "twitter:image")).toBe("https://lp.example/uploads/launch.webp");
      expect(metaContent(html, "robots")).toBe("noindex");
      expect(html).toContain('<a href="https://example.com/launch?ref=1"');
      expect(html).not.toContain("http-equiv");
      expect(html).not.toContain("<script");
    });
  }

  test("every crawler in the shared list, iMessage included, gets the page; its other bots (curl, no User-Agent) the 302", async () => {
    for (const [list, status] of [
      [crawlerAgents.crawlers, 200],
      [crawlerAgents.bots, 302],
    ] as const) {
      for (const agent of Object.values(list).flat()) {
        const response = await go("/go/alice/launch", agent);
        expect({ agent, status: response.status }).toEqual({ agent, status });
        await response.text();
      }
    }
  });

  test("a link without an image gets a summary card and no og:image", async () => {
    await seedLink(server.sql, owner.id, { linkSlug: "plain" });
    const html = await (await go("/go/alice/plain", "Twitterbot/1.0")).text();
    expect(metaContent(html, "twitter:card")).toBe("summary");
    expect(metaContent(html, "og:image")).toBeNull();
  });

  test("HTML in a link's text comes out inert", async () => {
    await seedLink(server.sql, owner.id, {
      linkSlug: "xss",
      title: `"><script>alert(1)</script>`,
      description: `<img src=x onerror=alert(2)>&`,
      targetUrl: `https://example.com/?q="><script>alert(3)</script>`,
    });
    const response = await go("/go/alice/xss", "Twitterbot/1.0");
    const html = await response.text();
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(metaContent(html, "og:title")).toBe("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(metaContent(html, "og:description")).toBe("&lt;img src=x onerror=alert(2)&gt;&amp;");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
  });
});

describe("people are redirected", () => {
  test("current browsers and in-app browsers get a 302 to the target, never cached", async () => {
    for (const [name, agent] of Object.entries(crawlerAgents.people)) {
      const response = await go("/go/alice/launch", agent);
      expect({ name, status: response.status }).toEqual({ name, status: 302 });
      expect(response.headers.get("location")).toBe("https://example.com/launch?ref=1");
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("what is not served", () => {
  test("unknown user, unknown slug and deleted link are the 404 page, and nothing is counted", async () => {
    await server.flushViews();
    const before = await viewCount();
    const gone = await seedLink(server.sql, owner.id, { linkSlug: "gone" });
    await server.sql.run("UPDATE links SET deleted = ?, deleted_at = ? WHERE id = ?", true, new Date(), gone);
    for (const path of ["/go/nobody/launch", "/go/alice/missing", "/go/alice/gone"]) {
      const response = await go(path, crawlerAgents.people["chrome-windows"]!);
      expect(response.status).toBe(404);
      expect(await response.text()).toContain("404 Page Not Found");
    }
    await server.flushViews();
    expect(await viewCount()).toBe(before);
  });

  test("a target that is not http(s), written straight into the database, is never redirected to", async () => {
    await seedLink(server.sql, owner.id, { linkSlug: "evil", targetUrl: "javascript:alert(1)" });
    const response = await go("/go/alice/evil", crawlerAgents.people["firefox-linux"]!);
    expect(response.status).toBe(404);
  });
});

describe("counting", () => {
  test("HEAD and browser prefetches are served but not counted", async () => {
    await server.flushViews();
    const before = await views();
    const head = await go("/go/alice/launch", "Twitterbot/1.0", { method: "HEAD" });
    expect(head.status).toBe(200);
    const prefetch = await go("/go/alice/launch", crawlerAgents.people["chrome-windows"]!, {
      headers: { "sec-purpose": "prefetch" },
    });
    expect(prefetch.status).toBe(302);
    await server.flushViews();
    expect(await views()).toEqual(before);
  });

  test("a burst of concurrent mixed requests: counters and View rows match exactly", async () => {
    const counted = await seedLink(server.sql, owner.id, { linkSlug: "burst" });
    const people = Object.values(crawlerAgents.people);
    const crawlers = Object.values(crawlerAgents.crawlers).flat();
    const requests: Array<{ agent: string; bot: boolean; qr: boolean }> = [];
    for (let i = 0; i < 300; i++) {
      const bot = i % 3 === 0;
      // Every fifth request through the QR code's URL: 40 people's scans, and 20 crawlers that are none.
      requests.push({ agent: bot ? crawlers[i % crawlers.length]! : people[i % people.length]!, bot, qr: i % 5 === 0 });
    }
    const statuses = await Promise.all(
      requests.map(async (r) => {
        const response = await go(`/go/alice/burst${r.qr ? "?qr=1" : ""}`, r.agent, {
          headers: { referer: "https://t.co/abc", "user-agent": r.agent },
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.filter((s) => s === 200).length).toBe(100);
    expect(statuses.filter((s) => s === 302).length).toBe(200);
    await server.flushViews();

    const counters = await server.sql.get<{ human: number; bot: number }>(
      "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS human, CAST(coalesce(sum(bot), 0) AS INTEGER) AS bot FROM view_rollups WHERE link_id = ?",
      counted,
    );
    expect(counters).toEqual({ human: 200, bot: 100 });
    const rows = await server.sql.all<{ isBot: number; n: number }>(
      `SELECT is_bot AS "isBot", CAST(count(*) AS INTEGER) AS n FROM views WHERE link_id = ? GROUP BY is_bot ORDER BY is_bot`,
      counted,
    );
    expect(rows).toEqual([
      { isBot: 0, n: 200 },
      { isBot: 1, n: 100 },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    const day = await server.sql.get<{ human: number; bot: number; uniques: number; scans: number }>(
      `SELECT CAST(sum(human) AS INTEGER) AS human, CAST(sum(bot) AS INTEGER) AS bot, CAST(sum(unique_humans) AS INTEGER) AS uniques,
              CAST(sum(scans) AS INTEGER) AS scans FROM view_rollups WHERE link_id = ? AND day = ?`,
      counted,
      today,
    );
    // One address: each distinct person's agent is one daily unique visitor.
    const scans = requests.filter((r) => r.qr && !r.bot).length;
    expect(day).toEqual({
      human: 200,
      bot: 100,
      uniques: new Set(requests.filter((r) => !r.bot).map((r) => r.agent)).size,
      scans,
    });
    expect(scans).toBe(40);
    // Each row keeps its User-Agent, stored once in user_agents.
    const agents = (
      await server.sql.all<{ agent: string }>(
        "SELECT DISTINCT a.text AS agent FROM views v JOIN user_agents a ON a.id = v.user_agent_id WHERE v.link_id = ? ORDER BY 1",
        counted,
      )
    ).map((r) => r.agent);
    expect(agents).toEqual([...new Set(requests.map((r) => r.agent))].sort());
    expect(
      (await server.sql.get<{ n: number }>(
        "SELECT CAST(count(*) AS INTEGER) AS n FROM views WHERE link_id = ? AND user_agent_id IS NULL",
        counted,
      ))!.n,
    ).toBe(0);

    const sample = await server.sql.get<{ userId: number; ip: string; attribution: string; platform: string | null }>(
      `SELECT user_id AS "userId", ip, attribution, platform FROM views WHERE link_id = ? AND is_bot = ? LIMIT 1`,
      counted,
      false,
    );
    expect(sample).toEqual({ userId: owner.id, ip: "127.0.0.0", attribution: "t.co", platform: null });
  });

  test("crawlers are stored with their platform", async () => {
    const id = await seedLink(server.sql, owner.id, { linkSlug: "platforms" });
    for (const agent of [
      "Twitterbot/1.0",
      "Twitterbot/1.0",
      "TelegramBot (like TwitterBot)",
      crawlerAgents.crawlers.imessage![0]!,
      "",
    ]) {
      await (await go("/go/alice/platforms", agent)).text();
    }
    await server.flushViews();
    const platforms = await server.sql.all<{ platform: string; count: number }>(
      "SELECT platform, CAST(sum(bot) AS INTEGER) AS count FROM view_rollups WHERE link_id = ? AND platform != '' GROUP BY platform ORDER BY platform",
      id,
    );
    expect(platforms).toEqual([
      { platform: "imessage", count: 1 },
      { platform: "other", count: 1 },
      { platform: "telegram", count: 1 },
      { platform: "x", count: 2 },
    ]);
  });
});

// docs/decisions/0059: card fetchers get the card, people and every other bot the same 302; a bot is never a person.
describe("three answers, one classifier", () => {
  const headersOf = (response: Response) => {
    const headers = Object.fromEntries(response.headers);
    delete headers.date;
    return headers;
  };

  test("curl's default User-Agent gets the 302 a person gets and is counted as a bot of kind tool, not a person", async () => {
    const id = await seedLink(server.sql, owner.id, { linkSlug: "tools", targetUrl: "https://example.com/tools" });
    const person = await go("/go/alice/tools", crawlerAgents.people["firefox-linux"]!);
    for (const agent of ["curl/8.5.0", "Wget/1.21.4", "python-requests/2.31.0", "Go-http-client/1.1"]) {
      const response = await go("/go/alice/tools", agent);
      expect({ agent, status: response.status }).toEqual({ agent, status: 302 });
      expect(response.headers.get("location")).toBe("https://example.com/tools");
      expect(headersOf(response)).toEqual(headersOf(person));
      expect(await response.text()).toBe("");
    }
    const monitor = await go(
      "/go/alice/tools",
      "Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)",
    );
    expect(monitor.status).toBe(302);
    const auditor = await go(
      "/go/alice/tools",
      "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse",
    );
    expect(auditor.status).toBe(302);
    await server.flushViews();
    const rows = await server.sql.all<{ platform: string; human: number; bot: number }>(
      "SELECT platform, CAST(sum(human) AS INTEGER) AS human, CAST(sum(bot) AS INTEGER) AS bot FROM view_rollups WHERE link_id = ? GROUP BY platform ORDER BY platform",
      id,
    );
    expect(rows).toEqual([
      { platform: "", human: 1, bot: 0 },
      { platform: "auditor", human: 0, bot: 1 },
      { platform: "monitor", human: 0, bot: 1 },
      { platform: "tool", human: 0, bot: 4 },
    ]);
    const views = await server.sql.all<{ isBot: number; n: number }>(
      `SELECT CAST(is_bot AS INTEGER) AS "isBot", CAST(count(*) AS INTEGER) AS n FROM views WHERE link_id = ? GROUP BY is_bot ORDER BY is_bot`,
      id,
    );
    expect(views).toEqual([
      { isBot: 0, n: 1 },
      { isBot: 1, n: 6 },
    ]);
  });

  test("HEAD answers what GET would, without a body: the card to a preview crawler, the 302 to curl and to a person", async () => {
    for (const agent of [
      "Twitterbot/1.0",
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "curl/8.5.0",
      "",
      crawlerAgents.people["safari-iphone"]!,
    ]) {
      const get = await go("/go/alice/launch", agent);
      const getBody = await get.text();
      const head = await go("/go/alice/launch", agent, { method: "HEAD" });
      expect({ agent, status: head.status, headers: headersOf(head) }).toEqual({
        agent,
        status: get.status,
        headers: headersOf(get),
      });
      expect(await head.text()).toBe("");
      if (get.status === 200) expect(getBody).toContain('<meta property="og:title" content="Our launch">');
      else expect(get.headers.get("location")).toBe("https://example.com/launch?ref=1");
    }
  });
});
