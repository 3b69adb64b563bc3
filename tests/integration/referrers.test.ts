// Top referrers: real /go requests with Referer headers, counted by the view writer into the per-day referrer
// rollups (host only, lower-case, none as its own bucket, a capped number of hosts a day), read back on the
// statistics page, its CSV, and trimmed with the raw views by retention.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, isTrue } from "../helpers/eventually.ts";
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

const PERSON = crawlerAgents.people["chrome-windows"]!;
const CRAWLER = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";
const DAY_MS = 86_400_000;

beforeAll(async () => {
  server = await startTestServer({ VIEW_RETENTION_DAYS: "30", VIEW_RETENTION_EVERY_MS: "200" });
  owner = await apiClient(server, "pro", "refowner");
  cookie = `lp_session=${(await seedSession(server.sql, owner.userId)).token}`;
});
afterAll(() => server.close());

async function go(slug: string, referer: string | null, agent = PERSON) {
  const headers: Record<string, string> = { "user-agent": agent };
  if (referer !== null) headers.referer = referer;
  const response = await fetch(`${server.url}/go/refowner/${slug}`, { redirect: "manual", headers });
  await response.arrayBuffer();
  expect(response.status).toBe(agent === PERSON ? 302 : 200);
}

const page = async (path: string) => (await fetch(`${server.url}${path}`, { headers: { cookie } })).text();
/** The rows of the CSV, header first. */
const csv = (text: string) =>
  text
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(",").map((cell) => cell.replace(/^"|"$/g, "")));

describe("top referrers", () => {
  test("hosts only, lower-case, most first, none as 'Direct or none'; crawlers are not counted; page table and CSV agree", async () => {
    await seedLink(server.sql, owner.userId, { linkSlug: "shared" });
    for (let i = 0; i < 3; i++) await go("shared", `https://News.Example.com/item?id=${i}&secret=token#top`);
    await go("shared", "https://social.example.org/@someone/123");
    await go("shared", "android-app://Com.Example.Mail/");
    await go("shared", null);
    await go("shared", null);
    await go("shared", "https://crawled.example.net/", CRAWLER);
    await server.flushViews();

    const html = await page("/admin/link/stats/shared");
    expect(html).toContain("Top referrers");
    expect(html).toContain("People by referrer");
    const table = html.slice(html.indexOf('data-testid="table-referrers"'));
    const cells = [...table.slice(0, table.indexOf("</table>")).matchAll(/<t[hd][^>]*>([^<]*)<\/t[hd]>/g)].map(
      (m) => m[1],
    );
    expect(cells).toEqual([
      "Referrer",
      "People",
      "news.example.com",
      "3",
      "Direct or none",
      "2",
      "com.example.mail",
      "1",
      "social.example.org",
      "1",
    ]);
    expect(html).not.toContain("secret=token");
    expect(html).not.toContain("crawled.example.net");

    const response = await fetch(`${server.url}/admin/link/stats/shared/csv?range=7&table=referrers`, {
      headers: { cookie },
    });
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="shared-referrers-7d.csv"');
    expect(csv(await response.text())).toEqual([
      ["Referrer", "People"],
      ["news.example.com", "3"],
      ["Direct or none", "2"],
      ["com.example.mail", "1"],
      ["social.example.org", "1"],
    ]);
  });

  test("a flood of made-up referrers keeps 50 hosts a day and counts the rest as other hosts", async () => {
    const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "flooded" });
    // Two batches: the cap holds within one and across them.
    for (let i = 0; i < 40; i++) await go("flooded", `https://fake-${i}.example/`);
    await server.flushViews();
    for (let i = 40; i < 70; i++) await go("flooded", `https://fake-${i}.example/`);
    for (let i = 0; i < 3; i++) await go("flooded", "https://fake-5.example/again");
    await server.flushViews();

    const rows = await server.sql.all<{ host: string; human: number }>(
      "SELECT host, human FROM referrer_rollups WHERE link_id = ? ORDER BY host",
      linkId,
    );
    expect(rows.length).toBe(51);
    expect(rows.reduce((n, row) => n + Number(row.human), 0)).toBe(73);
    expect(rows.find((row) => row.host === "*")).toMatchObject({ human: 20 });
    expect(rows.find((row) => row.host === "fake-5.example")).toMatchObject({ human: 4 });
    const csvRows = csv(
      await (await fetch(`${server.url}/admin/link/stats/flooded/csv?table=referrers`, { headers: { cookie } })).text(),
    );
    expect(csvRows[1]).toEqual(["fake-5.example", "4"]);
    expect(csvRows).toHaveLength(1 + 10 + 1);
    expect(csvRows.at(-1)).toEqual(["Other hosts", String(73 - 4 - 9)]);
  });

  test("a range counts only its days; retention deletes the days the raw views no longer cover", async () => {
    const linkId = await seedLink(server.sql, owner.userId, { linkSlug: "older" });
    const day = (ago: number) => new Date(Date.now() - ago * DAY_MS).toISOString().slice(0, 10);
    for (const [ago, host, human] of [
      [0, "today.example", 2],
      [20, "month.example", 5],
      [45, "expired.example", 7],
    ] as const) {
      await server.sql.run(
        "INSERT INTO referrer_rollups (link_id, day, host, human) VALUES (?, ?, ?, ?)",
        linkId,
        day(ago),
        host,
        human,
      );
    }
    const hosts = async (range: string) =>
      csv(await page(`/admin/link/stats/older/csv?range=${range}&table=referrers`))
        .slice(1)
        .map((row) => row[0]);
    expect(await hosts("7")).toEqual(["today.example"]);
    expect(await hosts("30")).toEqual(["month.example", "today.example"]);
    const left = () =>
      server.sql.all<{ host: string }>("SELECT host FROM referrer_rollups WHERE link_id = ? ORDER BY day", linkId);
    await eventually(async () => isTrue((await left()).length === 2, "the expired day gone"), {
      what: "retention to delete the expired referrer day",
    });
    expect((await left()).map((row) => row.host)).toEqual(["month.example", "today.example"]);
  });
});
