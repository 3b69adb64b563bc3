// A link's statistics page and its CSV downloads, and the dashboard's search, order, thumbnails and summaries,
// as the server renders them (the browser tests in tests/e2e/link-stats.spec.ts look at them drawn).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { insertRollup } from "../helpers/account.ts";
import {
  BILLING_ON,
  seedSession,
  seedSubscription,
  seedUser,
  startTestServer,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let cookie: string;
let otherCookie: string;
const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString().slice(0, 10);

const get = async (path: string, as = cookie) => {
  const response = await fetch(`${server.url}${path}`, { headers: { cookie: as }, redirect: "manual" });
  return { status: response.status, headers: response.headers, text: await response.text() };
};

beforeAll(async () => {
  server = await startTestServer(BILLING_ON);
  const user = await seedUser(server.sql);
  await seedSubscription(server.sql, user.id, "pro");
  cookie = `lp_session=${(await seedSession(server.sql, user.id)).token}`;
  const insert = (slug: string, title: string, target: string, image: string | null, ageDays: number) =>
    server.sql.get<{ id: number }>(
      "INSERT INTO links (user_id, link_slug, target_url, title, description, image_url, created_at) VALUES (?, ?, ?, ?, 'd', ?, ?) RETURNING id",
      user.id,
      slug,
      target,
      title,
      image,
      new Date(Date.now() - ageDays * DAY_MS),
    );
  const launch = (await insert(
    "launch",
    "Spring launch",
    "https://example.com/launch",
    "https://cdn.example.com/launch.png",
    200,
  ))!.id;
  await insert("quiet", "Quiet page", "https://example.org/quiet", null, 1);
  await insert("jobs", "Careers", "https://jobs.example.net/", null, 2);
  // Today 5 people and 2 Slack fetches, 3 days ago 4 people, 40 days ago 9 people and 1 X fetch, 150 days ago 1 person.
  await insertRollup(server.sql, launch, daysAgo(0), "", 5, 0);
  await insertRollup(server.sql, launch, daysAgo(0), "slack", 0, 2);
  await insertRollup(server.sql, launch, daysAgo(3), "", 4, 0);
  await insertRollup(server.sql, launch, daysAgo(40), "", 9, 0);
  await insertRollup(server.sql, launch, daysAgo(40), "x", 0, 1);
  await insertRollup(server.sql, launch, daysAgo(150), "", 1, 0);
  await server.sql.run(
    "UPDATE view_rollups SET unique_humans = 3, scans = 2 WHERE link_id = ? AND day = ? AND platform = ''",
    launch,
    daysAgo(0),
  );
  const other = await seedUser(server.sql);
  await seedSubscription(server.sql, other.id, "pro");
  otherCookie = `lp_session=${(await seedSession(server.sql, other.id)).token}`;
});
afterAll(() => server.close());

/** The rows of the CSV, header first. */
const csv = (text: string) =>
  text
    .trimEnd()
    .split("\r\n")
    .map((line) => line.split(",").map((cell) => cell.replace(/^"|"$/g, "")));

describe("statistics page", () => {
  test("30 days by default: a chart with labelled axes, the totals, and a table row per day", async () => {
    const { status, text } = await get("/admin/link/stats/launch");
    expect(status).toBe(200);
    expect(text).toContain("Statistics: Spring launch");
    expect(text).toContain("9 people and 2 crawler fetches; 3 daily unique visitors, summed; 2 QR scans.");
    expect(text).toContain('data-testid="day-chart"');
    expect(text).toContain(">Date (UTC)</text>");
    expect(text).toContain(">Visits</text>");
    expect(text.match(/data-axis="y"/g)!.length).toBeGreaterThanOrEqual(2);
    expect(text.match(/data-axis="x"/g)!.length).toBeGreaterThanOrEqual(2);
    const table = text.slice(text.indexOf('data-testid="table-days"'));
    expect(table.slice(0, table.indexOf("</table>")).match(/<tr/g)).toHaveLength(31);
    expect(text).toContain(
      'aria-current="page" class="rounded-md px-3 py-1.5 text-sm font-medium bg-gray-900 text-white">30 days',
    );
    expect(text).toContain("Card fetches by platform");
    expect(text).toContain(">Slack</text>");
    expect(text).not.toContain(">X</text>");
  });

  test("the range changes what is counted: 7 days, 90 days, all time (from the link's creation)", async () => {
    expect((await get("/admin/link/stats/launch?range=7")).text).toContain("9 people and 2 crawler fetches");
    expect((await get("/admin/link/stats/launch?range=90")).text).toContain("18 people and 3 crawler fetches");
    const all = (await get("/admin/link/stats/launch?range=all")).text;
    expect(all).toContain("19 people and 3 crawler fetches");
    expect(all).toContain(">X</text>");
  });

  test("the CSV holds what the tables show for the range, as a download", async () => {
    const days = await get("/admin/link/stats/launch/csv?range=7&table=days");
    expect(days.status).toBe(200);
    expect(days.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(days.headers.get("content-disposition")).toBe('attachment; filename="launch-days-7d.csv"');
    const rows = csv(days.text);
    expect(rows[0]).toEqual(["Date", "People", "Crawlers", "Daily unique visitors", "QR scans"]);
    expect(rows).toHaveLength(8);
    expect(rows.at(-1)).toEqual([daysAgo(0), "5", "2", "3", "2"]);
    expect(rows.find((row) => row[0] === daysAgo(3))).toEqual([daysAgo(3), "4", "0", "0", "0"]);
    const platforms = csv((await get("/admin/link/stats/launch/csv?range=all&table=platforms")).text);
    // Seeded into the rollups alone: no fetch was verified by network here (tests/integration/crawler-verification.test.ts).
    expect(platforms).toEqual([
      ["Platform", "Card fetches", "Verified", "Unverified", "Unverifiable"],
      ["Slack", "2", "0", "0", "0"],
      ["X", "1", "0", "0", "0"],
    ]);
  });

  test("another user's link, or none, is Link Not Found", async () => {
    expect((await get("/admin/link/stats/launch", otherCookie)).status).toBe(404);
    expect((await get("/admin/link/stats/launch/csv", otherCookie)).status).toBe(404);
    expect((await get("/admin/link/stats/nope")).status).toBe(404);
  });
});

describe("dashboard rows, search and order", () => {
  const rowSlugs = (html: string) => [...html.matchAll(/data-testid="link-row" data-slug="([^"]+)"/g)].map((m) => m[1]);

  test("a row shows the card's thumbnail, a readable summary and a link to its statistics", async () => {
    const { text } = await get("/admin");
    expect(text).toContain('src="https://cdn.example.com/launch.png"');
    expect(text).toContain("19 people visited (3 daily unique) · 3 crawler fetches · 2 by QR code · created");
    expect(text).toContain("No visits yet · created");
    expect(text).toContain('href="/admin/link/stats/launch"');
  });

  test("search finds title, slug and target words; sort=views puts the most viewed first", async () => {
    expect(rowSlugs((await get("/admin")).text)).toEqual(["quiet", "jobs", "launch"]);
    // Equal counts: the link made last (highest id) first.
    expect(rowSlugs((await get("/admin?sort=views")).text)).toEqual(["launch", "jobs", "quiet"]);
    const search = (await get("/admin?q=JOBS.example")).text;
    expect(rowSlugs(search)).toEqual(["jobs"]);
    expect(search).toContain("1 link matches &quot;JOBS.example&quot;");
    expect(rowSlugs((await get("/admin?q=spring")).text)).toEqual(["launch"]);
    expect(rowSlugs((await get("/admin?q=quiet")).text)).toEqual(["quiet"]);
    expect((await get("/admin?q=nothing")).text).toContain("0 links match &quot;nothing&quot;");
  });
});
