// GET /api/links in pages: search for words in title, description, slug and target, newest or most viewed first, and the next page's
// address in a Link header; without parameters the whole array as before.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { insertRollup } from "../helpers/account.ts";
import {
  apiClient,
  BILLING_ON,
  seedApiToken,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
let owner: ApiClient;
const created: Array<{ id: number; linkSlug: string; title: string }> = [];

const TITLES = [
  "Spring sale",
  "Summer sale",
  "Autumn news",
  "Winter 100% off_now",
  "Team page",
  "Careers",
  "Press kit",
];

beforeAll(async () => {
  server = await startTestServer(BILLING_ON);
  owner = await apiClient(server, "enterprise");
  for (const [i, title] of TITLES.entries()) {
    const response = await owner.call("/api/links", {
      method: "POST",
      json: {
        title,
        description: "A card",
        targetUrl: i === 5 ? "https://jobs.example.org/open" : `https://shop.example.com/${i}`,
        customLinkSlug: `link-${i}`,
      },
    });
    expect(response.status).toBe(201);
    created.push(await response.json());
  }
  // Views: Careers most, then Team page, then Spring sale; the rest none.
  await insertRollup(server.sql, created[5]!.id, "2026-11-20", "", 40, 2);
  await insertRollup(server.sql, created[4]!.id, "2026-11-20", "", 10, 0);
  await insertRollup(server.sql, created[4]!.id, "2026-11-21", "slack", 0, 3);
  await insertRollup(server.sql, created[0]!.id, "2026-11-21", "", 5, 0);
});
afterAll(() => server.close());

const titles = (list: Array<{ title: string }>) => list.map((l) => l.title);
const nextOf = (response: Response) => /^<([^>]+)>; rel="next"$/.exec(response.headers.get("link") ?? "")?.[1] ?? null;

/** Every page from `path` on, following the Link headers. */
async function allPages(path: string): Promise<{ pages: string[][]; nexts: string[] }> {
  const pages: string[][] = [];
  const nexts: string[] = [];
  let next: string | null = path;
  while (next) {
    const response = await owner.call(next.replace(server.ctx.config.publicUrl, ""));
    expect(response.status).toBe(200);
    pages.push(titles(await response.json()));
    next = nextOf(response);
    if (next) nexts.push(next);
  }
  return { pages, nexts };
}

describe("GET /api/links pages", () => {
  test("without parameters: the whole array, newest first, and no Link header", async () => {
    const response = await owner.call("/api/links");
    expect(response.headers.get("link")).toBeNull();
    expect(titles(await response.json())).toEqual([...TITLES].reverse());
  });

  test("limit pages newest first, each page a bare array, the last without a Link header", async () => {
    const { pages, nexts } = await allPages("/api/links?limit=3");
    expect(pages).toEqual([
      ["Press kit", "Careers", "Team page"],
      ["Winter 100% off_now", "Autumn news", "Summer sale"],
      ["Spring sale"],
    ]);
    expect(nexts[0]).toStartWith(`${server.ctx.config.publicUrl}/api/links?`);
  });

  test("sort=views: most viewed (people and crawlers) first, then newest among equals", async () => {
    const { pages } = await allPages("/api/links?sort=views&limit=2");
    expect(pages.flat()).toEqual([
      "Careers",
      "Team page",
      "Spring sale",
      "Press kit",
      "Winter 100% off_now",
      "Autumn news",
      "Summer sale",
    ]);
    expect(pages.length).toBe(4);
  });

  test("q finds title, slug and target words, case-insensitive, with % and _ taken literally", async () => {
    const search = async (q: string) =>
      titles(await (await owner.call(`/api/links?q=${encodeURIComponent(q)}`)).json());
    expect(await search("SALE")).toEqual(["Summer sale", "Spring sale"]);
    expect(await search("link-3")).toEqual(["Winter 100% off_now"]);
    expect(await search("jobs.example")).toEqual(["Careers"]);
    expect(await search("0% o")).toEqual(["Winter 100% off_now"]);
    expect(await search("f_n")).toEqual(["Winter 100% off_now"]);
    expect(await search("%")).toEqual(["Winter 100% off_now"]);
    expect(await search("nothing like it")).toEqual([]);
    // Read as written (src/http/plain-query.ts): a comma is a character, not a list.
    expect(await search("sale,")).toEqual([]);
    expect((await owner.call("/api/links?q=a,b")).status).toBe(200);
  });

  test("q finds every word in any order, each in the title, description, slug or target", async () => {
    const search = async (q: string) =>
      titles(await (await owner.call(`/api/links?q=${encodeURIComponent(q)}`)).json());
    expect(await search("sale summer")).toEqual(["Summer sale"]);
    expect(await search("  SALE   spring ")).toEqual(["Spring sale"]);
    // "card" only in the descriptions, "jobs" only in a target, "link-4" only in a slug.
    expect(await search("card jobs")).toEqual(["Careers"]);
    expect(await search("page card link-4")).toEqual(["Team page"]);
    expect(await search("sale careers")).toEqual([]);
  });

  test("a search pages too, and the Link header keeps the search", async () => {
    const { pages, nexts } = await allPages("/api/links?q=sale&limit=1");
    expect(pages).toEqual([["Summer sale"], ["Spring sale"]]);
    expect(new URL(nexts[0]!).searchParams.get("q")).toBe("sale");
  });

  test("bad parameters are 400s that say why", async () => {
    for (const [query, message] of [
      ["limit=201", "limit must be 200 or less"],
      ["limit=0", "limit must be at least 1"],
      ["sort=oldest", "sort must be newest or views"],
      ["cursor=bm9wZQ", "cursor is not one this server gave"],
    ]) {
      const response = await owner.call(`/api/links?${query}`);
      expect(response.status).toBe(400);
      expect((await response.json()).message).toContain(message!);
    }
  });

  test("another user's search finds none of these links", async () => {
    const stranger = await apiClient(server, "enterprise");
    expect(await (await stranger.call("/api/links?q=sale")).json()).toEqual([]);
  });
});

describe("linkprev links list --search --sort --limit", () => {
  const cli = join(import.meta.dir, "../../cli/linkprev.ts");
  /** The CLI as a child process (this process serves the test server it calls); --json's titles. */
  async function list(...args: string[]) {
    const { token } = await seedApiToken(server.sql, owner.userId, "cli");
    const env = { ...process.env, LINKPREV_SERVER: server.url, LINKPREV_TOKEN: token, XDG_CONFIG_HOME: server.dataDir };
    const child = Bun.spawn([process.execPath, cli, "links", "list", ...args], { env, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { code, stdout, stderr };
  }
  const listedTitles = async (...args: string[]) => titles(JSON.parse((await list(...args, "--json")).stdout));

  test("--search, --sort views and --limit choose and order the links, across pages", async () => {
    expect(await listedTitles("--search", "sale")).toEqual(["Summer sale", "Spring sale"]);
    expect(await listedTitles("--sort", "views", "--limit", "3")).toEqual(["Careers", "Team page", "Spring sale"]);
    expect(await listedTitles("--limit", "2")).toEqual(["Press kit", "Careers"]);
    expect(await listedTitles()).toHaveLength(TITLES.length);
  });

  test("the table says when nothing matches, and bad values are usage errors", async () => {
    expect((await list("--search", "zzz")).stdout).toContain('No link matches "zzz"');
    const badSort = await list("--sort", "oldest");
    expect(badSort.code).toBe(2);
    expect(badSort.stderr).toContain("--sort must be newest or views");
    expect((await list("--limit", "0")).code).toBe(2);
  });
});
