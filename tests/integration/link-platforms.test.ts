// GET /api/links/:id/platforms: which platform fetched the card, how often and when, and which may still show
// an old card after an edit (docs/decisions/0013), over real HTTP on SQLite and PostgreSQL.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { TestClock } from "../helpers/clock.ts";
import { crawlerAgents, seedApiToken, seedUser, startTestServer, type TestServer } from "../helpers/server.ts";

let server: TestServer;
// The server's time: an edit and a fetch are told apart by their millisecond, so the test moves it between them.
const clock = new TestClock();
beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL: "https://lp.example" }, clock);
});
afterAll(() => server.close());

async function client() {
  const user = await seedUser(server.sql);
  const { token } = await seedApiToken(server.sql, user.id);
  const call = (path: string, init: { method?: string; json?: unknown } = {}) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${token}`, ...(init.json ? { "content-type": "application/json" } : {}) },
      body: init.json ? JSON.stringify(init.json) : undefined,
    });
  return { ...user, call };
}

type Platform = {
  platform: string;
  fetches: number;
  lastFetchedAt: string | null;
  stale: boolean;
  cacheNote: string;
  refresh: { kind: string; url: string | null };
};
type Platforms = { cardUpdatedAt: string; platforms: Platform[] };

const card = {
  targetUrl: "https://example.com/a",
  title: "First title",
  description: "A description",
  imageUrl: "https://img.example.com/a.jpg",
};
const pause = () => clock.advance(1);

test("fetches and last fetch per platform, stale after a card edit (not a target edit), fresh after a new fetch", async () => {
  const owner = await client();
  const created = await owner.call("/api/links", { method: "POST", json: card });
  expect(created.status).toBe(201);
  const link = await created.json();
  const fetchAs = async (agent: string) => {
    const response = await fetch(`${server.url}/go/${owner.userSlug}/${link.linkSlug}`, {
      redirect: "manual",
      headers: { "user-agent": agent },
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  };
  const platforms = async (): Promise<Platforms> => {
    const response = await owner.call(`/api/links/${link.id}/platforms`);
    expect(response.status).toBe(200);
    return response.json();
  };
  const byId = (body: Platforms) => Object.fromEntries(body.platforms.map((p) => [p.platform, p]));

  // Never fetched: every card platform listed, nothing stale.
  const empty = await platforms();
  expect(empty.platforms.map((p) => p.platform)).toEqual([
    "x",
    "facebook",
    "linkedin",
    "slack",
    "discord",
    "whatsapp",
    "telegram",
    "imessage",
  ]);
  for (const p of empty.platforms) expect(p).toMatchObject({ fetches: 0, lastFetchedAt: null, stale: false });
  expect(Date.parse(empty.cardUpdatedAt)).toBe(clock.now());

  pause();
  const before = clock.now();
  await fetchAs(crawlerAgents.crawlers.facebook![0]!);
  await fetchAs(crawlerAgents.crawlers.facebook![1]!);
  await fetchAs(crawlerAgents.crawlers.x![0]!);
  await fetchAs(crawlerAgents.crawlers.facebook![0]!);
  const after = clock.now();
  await server.flushViews();

  const fetched = byId(await platforms());
  expect(fetched.facebook).toMatchObject({ fetches: 3, stale: false });
  expect(fetched.x).toMatchObject({ fetches: 1, stale: false });
  expect(fetched.linkedin).toMatchObject({ fetches: 0, lastFetchedAt: null, stale: false });
  // Exactly the newest stored view of that platform, to the ms.
  for (const platform of ["facebook", "x"]) {
    const newest = await server.sql.get<{ at: unknown }>(
      "SELECT max(timestamp) AS at FROM views WHERE link_id = ? AND platform = ?",
      link.id,
      platform,
    );
    const at = Date.parse(fetched[platform]!.lastFetchedAt!);
    expect(at).toBe(new Date(newest!.at as string | number | Date).getTime());
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  }
  // Refresh hints for this short URL.
  const shortUrl = encodeURIComponent(`https://lp.example/go/${owner.userSlug}/${link.linkSlug}`);
  expect(fetched.facebook!.refresh).toMatchObject({
    kind: "debugger",
    url: `https://developers.facebook.com/tools/debug/?q=${shortUrl}`,
  });
  expect(fetched.linkedin!.refresh).toMatchObject({
    kind: "debugger",
    url: `https://www.linkedin.com/post-inspector/inspect/${shortUrl}`,
  });
  expect(fetched.telegram!.refresh).toMatchObject({ kind: "bot", url: "https://t.me/webpagebot" });
  for (const id of ["x", "slack", "discord", "whatsapp"])
    expect(fetched[id]!.refresh).toMatchObject({ kind: "new-version", url: null });
  for (const p of Object.values(fetched)) expect(p.cacheNote.length).toBeGreaterThan(0);

  // A new title: both platforms that fetched it may show the old card.
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
  expect(Date.parse(edited.cardUpdatedAt)).toBeGreaterThan(after);
  expect(byId(edited).facebook).toMatchObject({ fetches: 3, stale: true });
  expect(byId(edited).x).toMatchObject({ fetches: 1, stale: true });
  expect(byId(edited).linkedin!.stale).toBe(false);

  // X fetches again: fresh; Facebook still stale.
  pause();
  await fetchAs(crawlerAgents.crawlers.x![0]!);
  await server.flushViews();
  const refetched = byId(await platforms());
  expect(refetched.x).toMatchObject({ fetches: 2, stale: false });
  expect(refetched.facebook!.stale).toBe(true);

  // Only the target changes: the card is the same, nothing new goes stale.
  pause();
  expect(
    (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
        method: "PUT",
        json: { ...card, title: "Second title", targetUrl: "https://example.com/b" },
      })
    ).status,
  ).toBe(200);
  const retargeted = await platforms();
  expect(retargeted.cardUpdatedAt).toBe(edited.cardUpdatedAt);
  expect(byId(retargeted).x!.stale).toBe(false);

  // A new image stales it again.
  pause();
  expect(
    (
      await owner.call(`/api/links/by-slug/${link.linkSlug}`, {
        method: "PUT",
        json: { ...card, title: "Second title", imageUrl: "https://img.example.com/b.jpg" },
      })
    ).status,
  ).toBe(200);
  expect(byId(await platforms()).x!.stale).toBe(true);
});

test("a platform without a mockup is listed once it has fetched; other users and unknown links get 404", async () => {
  const owner = await client();
  const intruder = await client();
  const link = await (await owner.call("/api/links", { method: "POST", json: card })).json();
  await (
    await fetch(`${server.url}/go/${owner.userSlug}/${link.linkSlug}`, {
      redirect: "manual",
      headers: { "user-agent": crawlerAgents.crawlers.mastodon![0]! },
    })
  ).arrayBuffer();
  await server.flushViews();
  const body: Platforms = await (await owner.call(`/api/links/${link.id}/platforms`)).json();
  expect(body.platforms.find((p) => p.platform === "mastodon")).toMatchObject({ fetches: 1, stale: false });

  expect((await intruder.call(`/api/links/${link.id}/platforms`)).status).toBe(404);
  expect((await owner.call(`/api/links/999999/platforms`)).status).toBe(404);
  expect((await owner.call(`/api/links/${link.id}`, { method: "DELETE" })).status).toBe(204);
  expect((await owner.call(`/api/links/${link.id}/platforms`)).status).toBe(404);
});
