// Versioned short URLs (docs/decisions/0007): POST /api/links/:id/versions and /go/{user}/{link}/{n}, over real HTTP
// on SQLite and PostgreSQL, and `linkprev links new-version`.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import { TestClock } from "../helpers/clock.ts";
import {
  apiClient,
  crawlerAgents,
  seedApiToken,
  seedUser,
  startTestServer,
  type ApiClient,
  type TestServer,
} from "../helpers/server.ts";

let server: TestServer;
// The server's time: an edit and a fetch are told apart by their millisecond, so the test moves it between them.
const clock = new TestClock();
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://lp.example" }, clock);
});
afterAll(() => server.close());

const card = {
  targetUrl: "https://example.com/a",
  title: "First title",
  description: "A description",
  imageUrl: "https://img.example.com/a.jpg",
};
const facebook = crawlerAgents.crawlers.facebook![0]!;
const twitter = crawlerAgents.crawlers.x![0]!;
const browser = crawlerAgents.people["chrome-windows"]!;

const go = (path: string, userAgent: string, method = "GET") =>
  fetch(`${server.url}${path}`, { method, redirect: "manual", headers: { "user-agent": userAgent } });
const meta = (html: string, key: string) =>
  new RegExp(`<meta property="${key}" content="([^"]*)">`).exec(html)?.[1] ?? null;
const canonical = (html: string) => /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1] ?? null;

async function createLink(owner: ApiClient) {
  const response = await owner.call("/api/links", { method: "POST", json: card });
  expect(response.status).toBe(201);
  return (await response.json()) as {
    id: number;
    linkSlug: string;
    shortUrl: string;
    currentShortUrl: string;
    version: number;
  };
}

const issue = (owner: ApiClient, id: number) => owner.call(`/api/links/${id}/versions`, { method: "POST" });

const counts = async (linkId: number) => {
  await server.flushViews();
  return (await server.sql.get<{ human: number; bot: number }>(
    "SELECT CAST(coalesce(sum(human), 0) AS INTEGER) AS human, CAST(coalesce(sum(bot), 0) AS INTEGER) AS bot FROM view_rollups WHERE link_id = ?",
    linkId,
  ))!;
};

test("each call issues the next version; the versioned address serves the same card under its own og:url and canonical", async () => {
  const owner = await apiClient(server, null);
  const link = await createLink(owner);
  const plain = `https://lp.example/go/${owner.userSlug}/${link.linkSlug}`;
  expect(link).toMatchObject({ version: 1, shortUrl: plain, currentShortUrl: plain });

  // Cached as version 1 first: the new version must reach the /go cache through the change announcement.
  const before = await go(`/go/${owner.userSlug}/${link.linkSlug}`, facebook);
  expect(meta(await before.text(), "og:url")).toBe(plain);
  expect((await go(`/go/${owner.userSlug}/${link.linkSlug}/2`, facebook)).status).toBe(404);

  const first = await issue(owner, link.id);
  expect(first.status).toBe(201);
  expect(await first.json()).toEqual({ version: 2, shortUrl: `${plain}/2` });
  const second = await issue(owner, link.id);
  expect(await second.json()).toEqual({ version: 3, shortUrl: `${plain}/3` });

  for (const [path, expected] of [
    [`${link.linkSlug}/2`, `${plain}/2`],
    [`${link.linkSlug}/3`, `${plain}/3`],
    [`${link.linkSlug}/1`, plain],
    [link.linkSlug, plain],
  ] as const) {
    const response = await go(`/go/${owner.userSlug}/${path}`, facebook);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect({ path, ogUrl: meta(html, "og:url"), canonical: canonical(html) }).toEqual({
      path,
      ogUrl: expected,
      canonical: expected,
    });
    expect(meta(html, "og:title")).toBe("First title");
  }

  // People are sent to the target from every version.
  const person = await go(`/go/${owner.userSlug}/${link.linkSlug}/2`, browser);
  expect(person.status).toBe(302);
  expect(person.headers.get("location")).toBe("https://example.com/a");

  // The link JSON names the newest version as the address to share, in get, list and update answers.
  const read = await (await owner.call(`/api/links/by-slug/${link.linkSlug}`)).json();
  expect(read).toMatchObject({ version: 3, shortUrl: plain, currentShortUrl: `${plain}/3` });
  const list = await (await owner.call("/api/links")).json();
  expect(list.find((l: { id: number }) => l.id === link.id)).toMatchObject({
    version: 3,
    currentShortUrl: `${plain}/3`,
  });
  const updated = await (
    await owner.call(`/api/links/by-slug/${link.linkSlug}`, { method: "PUT", json: { ...card, title: "Second title" } })
  ).json();
  expect(updated).toMatchObject({ version: 3, currentShortUrl: `${plain}/3` });
  // The card edit reaches every version's cached page.
  expect(meta(await (await go(`/go/${owner.userSlug}/${link.linkSlug}/3`, facebook)).text(), "og:title")).toBe(
    "Second title",
  );
});

test("every version counts into the same link, people and crawlers apart, HEAD not counted", async () => {
  const owner = await apiClient(server, null);
  const link = await createLink(owner);
  await issue(owner, link.id);
  const start = await counts(link.id);
  for (const path of [link.linkSlug, `${link.linkSlug}/1`, `${link.linkSlug}/2`]) {
    await (await go(`/go/${owner.userSlug}/${path}`, facebook)).arrayBuffer();
    await (await go(`/go/${owner.userSlug}/${path}`, browser)).arrayBuffer();
  }
  expect((await go(`/go/${owner.userSlug}/${link.linkSlug}/2`, facebook, "HEAD")).status).toBe(200);
  expect(await counts(link.id)).toEqual({ human: start.human + 3, bot: start.bot + 3 });
});

test("unknown versions are the 404 page and count nothing; the plain address is unchanged", async () => {
  const owner = await apiClient(server, null);
  const link = await createLink(owner);
  await issue(owner, link.id);
  const notFoundPage = await (await go(`/go/${owner.userSlug}/no-such-link`, facebook)).text();
  const start = await counts(link.id);
  for (const version of [
    "0",
    "3",
    "00",
    "01",
    "1.0",
    "+1",
    "-1",
    "abc",
    "1e1",
    "2x",
    "99999999999999999999",
    "4294967298",
    "%20",
  ]) {
    for (const agent of [facebook, browser]) {
      const response = await go(`/go/${owner.userSlug}/${link.linkSlug}/${version}`, agent);
      expect({ version, status: response.status }).toEqual({ version, status: 404 });
      expect(await response.text()).toBe(notFoundPage);
    }
  }
  // Deeper paths are not versions either.
  expect((await go(`/go/${owner.userSlug}/${link.linkSlug}/2/3`, facebook)).status).toBe(404);
  expect(await counts(link.id)).toEqual(start);
  const plain = await go(`/go/${owner.userSlug}/${link.linkSlug}`, browser);
  expect(plain.status).toBe(302);
  expect(plain.headers.get("location")).toBe("https://example.com/a");
});

test("versions are the owner's: another user, an unknown or deleted link get 404", async () => {
  const owner = await apiClient(server, null);
  const intruder = await apiClient(server, null);
  const link = await createLink(owner);
  expect((await issue(intruder, link.id)).status).toBe(404);
  expect((await issue(owner, 999_999)).status).toBe(404);
  expect((await issue(owner, link.id)).status).toBe(201);
  // The version lives under its owner's address only.
  expect((await go(`/go/${intruder.userSlug}/${link.linkSlug}/2`, facebook)).status).toBe(404);
  // The intruder's attempt issued nothing: the owner's next one is 3.
  expect(await (await issue(owner, link.id)).json()).toMatchObject({ version: 3 });
  expect((await owner.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(204);
  expect((await issue(owner, link.id)).status).toBe(404);
  expect((await go(`/go/${owner.userSlug}/${link.linkSlug}/2`, facebook)).status).toBe(404);
});

type Platform = {
  platform: string;
  stale: boolean;
  refresh: { kind: string; url: string | null; endpoint: { method: string; path: string } | null };
};

test("stale per platform across an edit and a new version; refresh names the versions endpoint", async () => {
  const owner = await apiClient(server, null);
  const link = await createLink(owner);
  const plain = `https://lp.example/go/${owner.userSlug}/${link.linkSlug}`;
  const platforms = async () => {
    const body = (await (await owner.call(`/api/links/${link.id}/platforms`)).json()) as { platforms: Platform[] };
    return Object.fromEntries(body.platforms.map((p) => [p.platform, p]));
  };
  const pause = () => clock.advance(1);

  await (await go(`/go/${owner.userSlug}/${link.linkSlug}`, twitter)).arrayBuffer();
  await (await go(`/go/${owner.userSlug}/${link.linkSlug}`, facebook)).arrayBuffer();
  await server.flushViews();
  const fetched = await platforms();
  expect(fetched.x!.stale).toBe(false);
  for (const id of ["x", "slack", "discord", "whatsapp"]) {
    expect(fetched[id]!.refresh).toMatchObject({
      kind: "new-version",
      url: null,
      endpoint: { method: "POST", path: `/api/links/${link.id}/versions` },
    });
  }
  expect(fetched.facebook!.refresh).toMatchObject({
    kind: "debugger",
    endpoint: null,
    url: `https://developers.facebook.com/tools/debug/?q=${encodeURIComponent(plain)}`,
  });

  pause();
  expect(
    (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
        method: "PUT",
        json: { ...card, title: "Second title" },
      })
    ).status,
  ).toBe(200);
  const edited = await platforms();
  expect([edited.x!.stale, edited.facebook!.stale]).toEqual([true, true]);

  // A new version changes the address, not the card: still stale until the platform fetches again.
  expect((await issue(owner, link.id)).status).toBe(201);
  const versioned = await platforms();
  expect([versioned.x!.stale, versioned.facebook!.stale]).toEqual([true, true]);
  // Debuggers are pointed at the address to share now.
  expect(versioned.facebook!.refresh.url).toBe(
    `https://developers.facebook.com/tools/debug/?q=${encodeURIComponent(`${plain}/2`)}`,
  );
  expect(versioned.linkedin!.refresh.url).toBe(
    `https://www.linkedin.com/post-inspector/inspect/${encodeURIComponent(`${plain}/2`)}`,
  );

  // X fetches the new address: its card is fresh; Facebook has not fetched again.
  pause();
  await (await go(`/go/${owner.userSlug}/${link.linkSlug}/2`, twitter)).arrayBuffer();
  await server.flushViews();
  const refreshed = await platforms();
  expect([refreshed.x!.stale, refreshed.facebook!.stale]).toEqual([false, true]);
});

test("linkprev links new-version prints the new short URL, or the API's answer with --json", async () => {
  const user = await seedUser(server.sql);
  const { token } = await seedApiToken(server.sql, user.id);
  const owner = await apiClient(server, null);
  const link = await createLink(owner);
  const cli = join(import.meta.dir, "../../cli/linkprev.ts");
  const run = async (args: string[], as = token) => {
    const child = Bun.spawn([process.execPath, cli, ...args], {
      env: { ...process.env, LINKPREV_SERVER: server.url, LINKPREV_TOKEN: as, XDG_CONFIG_HOME: server.dataDir },
      stdout: "pipe",
      stderr: "pipe",
    });
    const [stdout, stderr, code] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.exited,
    ]);
    return { stdout, stderr, code };
  };
  // The owner's token: create one for the API client's user.
  const ownerToken = (await seedApiToken(server.sql, owner.userId)).token;
  const plain = `https://lp.example/go/${owner.userSlug}/${link.linkSlug}`;
  const text = await run(["links", "new-version", link.linkSlug], ownerToken);
  expect(text).toMatchObject({ code: 0, stdout: `${plain}/2\n` });
  const json = await run(["links", "new-version", link.linkSlug, "--json"], ownerToken);
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toEqual({ version: 3, shortUrl: `${plain}/3` });
  // Another user's slug is theirs to version, not this one's: refused, nothing issued.
  const refused = await run(["links", "new-version", link.linkSlug]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("Link not found");
  expect(await (await owner.call(`/api/links/by-slug/${link.linkSlug}`)).json()).toMatchObject({ version: 3 });
});
