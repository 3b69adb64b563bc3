// Trust and safety end to end, on SQLite and PostgreSQL: the sample feeds loaded at start, targets checked where
// links change, a refresh disabling what it newly lists, what a disabled link shows, inspect pages and reports.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findListed } from "../../src/safety/find-threat.ts";
import { startFakeWebRisk, type FakeWebRisk } from "../fakes/web-risk.ts";
import { eventually, isTrue } from "../helpers/eventually.ts";
import { apiClient, crawlerAgents, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const fixture = (name: string) => new URL(`../fixtures/threat-feeds/${name}`, import.meta.url).pathname;
const PERSON = crawlerAgents.people[Object.keys(crawlerAgents.people)[0]!]!;
const FLAGGED = "https://totally-fine.example/download";
const METRICS_TOKEN = "safety-metrics-token-0123456789";

let server: TestServer;
let webRisk: FakeWebRisk;
let alice: ApiClient;
let feedDir: string;
let lateFeed: string;

const valid = {
  title: "My custom card",
  description: "A description written by the owner",
  targetUrl: "https://example.org/page",
};
const create = (client: ApiClient, fields: Partial<typeof valid> & { customLinkSlug?: string }) =>
  client.call("/api/links", { method: "POST", json: { ...valid, ...fields } });
const linkJson = async (client: ApiClient, slug: string) =>
  (await (await client.call(`/api/links/by-slug/${slug}`)).json()) as {
    status: string;
    disabledReason: string | null;
    id: number;
  };
const viewsOf = async (linkId: number) =>
  (await server.sql.get<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM views WHERE link_id = ?", linkId))!
    .n;

beforeAll(async () => {
  webRisk = startFakeWebRisk({ [FLAGGED]: ["MALWARE"] });
  feedDir = mkdtempSync(join(tmpdir(), "linkprev-feeds-"));
  lateFeed = join(feedDir, "late-hosts.txt");
  writeFileSync(lateFeed, "# nothing listed yet\n");
  server = await startTestServer({
    THREAT_FEEDS: [
      `urlhaus:${fixture("urlhaus.csv")}`,
      `phishtank:${fixture("phishtank.json")}`,
      `openphish:${fixture("openphish.txt")}`,
      `hosts:${fixture("hosts.txt")}`,
      `hosts:${lateFeed}`,
    ].join(","),
    THREAT_FEEDS_EVERY_MS: "1000",
    WEB_RISK_API_KEY: webRisk.key,
    WEB_RISK_URL: webRisk.url,
    METRICS_TOKEN: METRICS_TOKEN,
  });
  alice = await apiClient(server, "pro", "alice");
});
afterAll(async () => {
  await server.close();
  webRisk.stop();
  rmSync(feedDir, { recursive: true, force: true });
});

describe("checks where links change", () => {
  test("a create whose target a feed lists is a 422 naming the feed", async () => {
    const urlhaus = await create(alice, { targetUrl: "https://cdn-update.dropfile-share.top/invoice_2026.zip" });
    expect(urlhaus.status).toBe(422);
    expect(((await urlhaus.json()) as { message: string }).message).toContain("URLhaus");
    const host = await create(alice, { targetUrl: "https://deep.evil-login.github.io/wallet" });
    expect(host.status).toBe(422);
    expect(((await host.json()) as { message: string }).message).toContain(
      "host list lists the host evil-login.github.io",
    );
  });

  test("an update to a listed target is a 422 naming the feed, and the link keeps its target", async () => {
    expect((await create(alice, { customLinkSlug: "safe" })).status).toBe(201);
    const response = await alice.call("/api/links/by-slug/safe", {
      method: "PUT",
      json: { ...valid, targetUrl: "https://secure-paypa1-login.com/webapps/signin?country=US" },
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { message: string }).message).toContain("PhishTank");
    expect(((await (await alice.call("/api/links/by-slug/safe")).json()) as { targetUrl: string }).targetUrl).toBe(
      valid.targetUrl,
    );
  });

  test("Web Risk: a flagged target is refused with Google's qualifying words and attribution; the fake saw the lookup", async () => {
    const response = await create(alice, { targetUrl: FLAGGED });
    expect(response.status).toBe(422);
    const { message } = (await response.json()) as { message: string };
    expect(message).toContain("suspected malware");
    expect(message).toContain("Advisory provided by Google");
    expect(
      webRisk.requests.some((request) => request.uri === FLAGGED && request.threatTypes.includes("SOCIAL_ENGINEERING")),
    ).toBe(true);
  });

  test("a CSV import (linkprev links import) refuses the listed row on its line, naming the feed, and creates the rest", async () => {
    const token = (
      (await (await alice.call("/api/tokens", { method: "POST", json: { name: "import" } })).json()) as {
        token: string;
      }
    ).token;
    const csv = join(feedDir, "links.csv");
    writeFileSync(
      csv,
      [
        "target,title,description,slug",
        "https://example.org/fine,Fine,A fine page,fine-import",
        "https://metamask-wallet-restore.pages.dev/,Wallet,Restore,wallet-import",
      ].join("\n") + "\n",
    );
    const child = Bun.spawn(
      [process.execPath, new URL("../../cli/linkprev.ts", import.meta.url).pathname, "links", "import", csv],
      {
        env: { ...process.env, LINKPREV_SERVER: server.url, LINKPREV_TOKEN: token, XDG_CONFIG_HOME: feedDir },
        stdout: "pipe",
        stderr: "pipe",
      },
    );
    const [stdout, stderr] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    expect(stderr).toContain("line 3: targetUrl: This target cannot be linked: OpenPhish lists this address as unsafe");
    expect(stdout).toContain("Created 1");
  });

  test("siblings, parents and public-suffix neighbours of listed hosts are accepted", async () => {
    for (const targetUrl of [
      "https://facebook.github.io/react-native/",
      "https://example.co.uk/",
      "https://www.bbc.co.uk/news",
      "https://googleblog.blogspot.com/",
    ]) {
      expect((await create(alice, { targetUrl })).status).toBe(201);
    }
  });

  test("no false positives: 1,000+ benign real-world URLs are not listed by the loaded feeds", async () => {
    const benign = (await Bun.file(new URL("../fixtures/benign-urls.txt", import.meta.url)).text())
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    expect(benign.length).toBeGreaterThanOrEqual(1000);
    const hits: string[] = [];
    for (const url of benign) if (await findListed(server.ctx.db, url)) hits.push(url);
    expect(hits).toEqual([]);
    expect(await findListed(server.ctx.db, "https://secure-paypa1-login.com/webapps/signin?country=US")).not.toBeNull();
  });
});

describe("a feed refresh and a disabled link", () => {
  let badId: number;
  test("a refresh that lists a live link's host disables it within one cycle, and only it", async () => {
    expect(
      (await create(alice, { customLinkSlug: "soonbad", targetUrl: "https://promo.turns-bad.example.net/offer" }))
        .status,
    ).toBe(201);
    expect(
      (await create(alice, { customLinkSlug: "neighbour", targetUrl: "https://turns-bad.example.net/" })).status,
    ).toBe(201);
    writeFileSync(lateFeed, "promo.turns-bad.example.net\n");
    const disabled = await eventually(
      async () => {
        const link = await linkJson(alice, "soonbad");
        isTrue(link.status === "disabled", "the listed link is disabled");
        return link;
      },
      { what: "the refresh to disable the link" },
    );
    badId = disabled.id;
    expect(disabled.disabledReason).toBe("Listed by the instance's host list");
    expect((await linkJson(alice, "neighbour")).status).toBe("active");
    expect((await linkJson(alice, "safe")).status).toBe("active");
  });

  test("every crawler family gets the neutral card (no owner title, description or image, noindex); nothing counted", async () => {
    for (const [family, agents] of Object.entries(crawlerAgents.crawlers)) {
      const response = await fetch(`${server.url}/go/alice/soonbad`, {
        headers: { "user-agent": agents[0]! },
        redirect: "manual",
      });
      const html = await response.text();
      expect([family, response.status]).toEqual([family, 200]);
      expect(html).toContain('<meta property="og:title" content="Link disabled">');
      expect(html).toContain('<meta name="robots" content="noindex">');
      expect(html).not.toContain(valid.title);
      expect(html).not.toContain(valid.description);
      expect(html).not.toContain("og:image");
      expect(response.headers.get("x-robots-tag")).toBe("noindex");
    }
    await server.flushViews();
    expect(await viewsOf(badId)).toBe(0);
  });

  test("a person gets a warning with the destination as text, not a redirect; nothing counted", async () => {
    const response = await fetch(`${server.url}/go/alice/soonbad`, {
      headers: { "user-agent": PERSON },
      redirect: "manual",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("location")).toBeNull();
    const html = await response.text();
    expect(html).toContain("this link has been disabled");
    expect(html).toContain('<code style="word-break:break-all">https://promo.turns-bad.example.net/offer</code>');
    expect(html).not.toContain('href="https://promo.turns-bad.example.net');
    await server.flushViews();
    expect(await viewsOf(badId)).toBe(0);
  });

  test("inspect: an active link shows its destination, card, date, status and the report form; a disabled one its reason; neither counted", async () => {
    const active = await fetch(`${server.url}/go/alice/safe+`, { headers: { "user-agent": PERSON } });
    const html = await active.text();
    expect(active.status).toBe(200);
    for (const text of [
      valid.targetUrl,
      valid.title,
      "Active",
      "Report this link",
      'action="/api/reports"',
      new Date().toISOString().slice(0, 4),
    ])
      expect(html).toContain(text);
    const disabled = await (
      await fetch(`${server.url}/go/alice/soonbad+`, { headers: { "user-agent": PERSON } })
    ).text();
    expect(disabled).toContain("Disabled: Listed by the instance&#39;s host list");
    expect(disabled).toContain("Link disabled");
    expect(disabled).not.toContain(valid.title);
    expect((await fetch(`${server.url}/go/alice/nothing-here+`)).status).toBe(404);
    // The same `+` after a version: an existing one inspects the link, a later one does not exist.
    expect(await (await fetch(`${server.url}/go/alice/safe/1+`)).text()).toContain(valid.targetUrl);
    expect((await fetch(`${server.url}/go/alice/safe/7+`)).status).toBe(404);
    await server.flushViews();
    const safe = await linkJson(alice, "safe");
    expect(await viewsOf(safe.id)).toBe(0);
  });
});

describe("reports", () => {
  test("anyone may report a link without an account; the address is stored truncated; the form returns to the inspect page", async () => {
    const response = await fetch(`${server.url}/api/reports`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.77" },
      body: JSON.stringify({
        address: `${server.url}/go/alice/safe`,
        reason: "phishing",
        details: "asks for my bank password",
      }),
    });
    expect(response.status).toBe(201);
    expect(((await response.json()) as { address: string }).address).toBe("alice/safe");
    const stored = await server.sql.get<{ reason: string; reporter_address: string; details: string }>(
      "SELECT reason, reporter_address, details FROM abuse_reports ORDER BY id DESC LIMIT 1",
    );
    expect(stored!.reason).toBe("phishing");
    expect(stored!.reporter_address).toMatch(/\.0$|::$|^unknown$/);
    const form = await fetch(`${server.url}/api/reports`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ address: "/go/alice/safe", reason: "spam", details: "" }),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get("location")).toBe("/go/alice/safe+?reported=1");
  });

  test("a bad reason is a 400, an unknown address a 404; more than 5 reports an hour from one address is a 429", async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/api/reports`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post({ address: "alice/safe", reason: "boring" })).status).toBe(400);
    expect((await post({ address: "alice/missing", reason: "spam" })).status).toBe(404);
    const answers: Response[] = [];
    for (let i = 0; i < 6; i++) answers.push(await post({ address: "alice/safe", reason: "other" }));
    const limited = answers.find((answer) => answer.status === 429);
    expect(((await limited!.json()) as { message: string }).message).toBe(
      "At most 5 reports an hour can be sent from one address. Please try again later.",
    );
  });
});

describe("feed failures and /metrics", () => {
  const metrics = async () =>
    (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (text: string, series: string) =>
    Number(
      text
        .split("\n")
        .find((line) => line.startsWith(`${series} `))
        ?.slice(series.length + 1) ?? Number.NaN,
    );

  test("/metrics counts checks, hits by source, disabled links by reason and open reports", async () => {
    const text = await metrics();
    expect(value(text, "linkprev_safety_checks_total")).toBeGreaterThan(5);
    expect(value(text, 'linkprev_safety_hits_total{source="urlhaus"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'linkprev_safety_hits_total{source="web-risk"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'linkprev_safety_hits_total{source="hosts-2"}')).toBe(1);
    expect(value(text, `linkprev_links_disabled{reason="Listed by the instance's host list"}`)).toBe(1);
    expect(value(text, "linkprev_reports_open")).toBeGreaterThanOrEqual(1);
    expect(value(text, 'linkprev_threat_feed_entries{source="urlhaus"}')).toBe(5);
  });

  test("a feed that cannot be read keeps its last good copy, and says so in /metrics", async () => {
    rmSync(lateFeed);
    await eventually(
      async () =>
        isTrue(
          value(await metrics(), 'linkprev_threat_feed_failing{source="hosts-2"}') === 1,
          "the feed is reported failing",
        ),
      { what: "a refresh of the missing feed" },
    );
    expect(value(await metrics(), 'linkprev_threat_feed_entries{source="hosts-2"}')).toBe(1);
    const still = await create(alice, { targetUrl: "https://promo.turns-bad.example.net/again" });
    expect(still.status).toBe(422);
    expect(value(await metrics(), 'linkprev_threat_feed_failing{source="urlhaus"}')).toBe(0);
  });
});
