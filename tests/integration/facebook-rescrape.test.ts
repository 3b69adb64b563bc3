// Facebook re-scrape after a card change (docs/decisions/0007): against a fake Graph API speaking the real protocol,
// on SQLite and PostgreSQL. APP_WORKERS=0 runs the API on the test's thread, so that the test can wait for the
// service to store Facebook's answer (server.ctx.facebook.settled()) instead of sleeping.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { systemClock } from "../../src/clock.ts";
import { loadConfig } from "../../src/config/config.ts";
import { createLogger } from "../../src/observability/log.ts";
import { FacebookRescraper, type ScrapeOutcome } from "../../src/previews/facebook-scrape.ts";
import { startFakeFacebookGraph, type FakeFacebookGraph } from "../fakes/facebook-graph.ts";
import { apiClient, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const card = {
  targetUrl: "https://example.com/a",
  title: "First title",
  description: "A description",
  imageUrl: "https://img.example.com/a.jpg",
};
type Scrape = { at: string; ok: boolean; message: string } | null;

async function createLink(owner: ApiClient) {
  const response = await owner.call("/api/links", { method: "POST", json: card });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; linkSlug: string; shortUrl: string };
}

const edit = async (owner: ApiClient, slug: string, fields: Partial<typeof card>) => {
  const response = await owner.call(`/api/links/by-slug/${slug}`, { method: "PUT", json: { ...card, ...fields } });
  expect(response.status).toBe(200);
};

const facebookScrape = async (owner: ApiClient, id: number): Promise<Scrape> => {
  const body = (await (await owner.call(`/api/links/${id}/platforms`)).json()) as {
    platforms: Array<{ platform: string; scrape?: Scrape }>;
  };
  const entry = body.platforms.find((p) => p.platform === "facebook")!;
  expect("scrape" in entry).toBe(true);
  return entry.scrape!;
};

describe("with FACEBOOK_APP_ID and FACEBOOK_APP_SECRET", () => {
  let server: TestServer;
  let graph: FakeFacebookGraph;
  beforeAll(async () => {
    graph = startFakeFacebookGraph("1234567890", "s3cret-app");
    server = await startTestServer({ ...graph.env, APP_WORKERS: "0" });
  });
  afterAll(async () => {
    await server.close();
    graph.stop();
  });
  /** Every re-scrape asked for so far has been answered and stored. */
  const settled = () => server.ctx.facebook!.settled();

  test("a card edit asks for exactly one re-scrape of the short URL, with the app token, and shows the answer", async () => {
    const owner = await apiClient(server, null);
    const link = await createLink(owner);
    await settled();
    const before = graph.requests.length;
    // Creating a link asks nothing: Facebook has no old card of it.
    expect(await facebookScrape(owner, link.id)).toBeNull();

    const asked = Date.now();
    await edit(owner, link.linkSlug, { title: "Second title" });
    await graph.received(before + 1);
    await settled();
    expect(graph.requests.slice(before)).toEqual([
      { path: "/v21.0/", id: link.shortUrl, scrape: "true", accessToken: "1234567890|s3cret-app" },
    ]);
    const scrape = await facebookScrape(owner, link.id);
    expect(scrape).toMatchObject({ ok: true });
    expect(scrape!.message).toContain("Scraped by the fake Graph API");
    expect(Date.parse(scrape!.at)).toBeGreaterThanOrEqual(asked - 1);

    // A new description or image is a card change too.
    await edit(owner, link.linkSlug, { title: "Second title", imageUrl: "https://img.example.com/b.jpg" });
    await graph.received(before + 2);
    await settled();
    expect(graph.requests.length).toBe(before + 2);
  });

  test("a target-only edit asks nothing", async () => {
    const owner = await apiClient(server, null);
    const link = await createLink(owner);
    await settled();
    const before = graph.requests.length;
    await edit(owner, link.linkSlug, { targetUrl: "https://example.com/b" });
    // The service queues a re-scrape before it answers: once settled, none was asked for.
    await settled();
    expect(graph.requests.length).toBe(before);
    expect(await facebookScrape(owner, link.id)).toBeNull();
  });

  test("a new version asks Facebook to scrape the new address", async () => {
    const owner = await apiClient(server, null);
    const link = await createLink(owner);
    await settled();
    const before = graph.requests.length;
    const issued = await (await owner.call(`/api/links/${link.id}/versions`, { method: "POST" })).json();
    await graph.received(before + 1);
    await settled();
    expect(graph.requests.slice(before).map((r) => r.id)).toEqual([issued.shortUrl]);
    expect(issued.shortUrl).toBe(`${link.shortUrl}/2`);
    expect(await facebookScrape(owner, link.id)).toMatchObject({ ok: true });
    // A later card edit scrapes the address shared now: the newest version's.
    await edit(owner, link.linkSlug, { title: "Third title" });
    await graph.received(before + 2);
    await settled();
    expect(graph.requests[before + 1]!.id).toBe(`${link.shortUrl}/2`);
  });

  test("Facebook's error shows as ok: false with its message; the save itself succeeded", async () => {
    const owner = await apiClient(server, null);
    const link = await createLink(owner);
    await settled();
    const before = graph.requests.length;
    graph.failWith({ message: "(#4) Application request limit reached", status: 403, code: 4 });
    try {
      await edit(owner, link.linkSlug, { description: "A new description" });
      await graph.received(before + 1);
      await settled();
    } finally {
      graph.failWith(null);
    }
    expect(await facebookScrape(owner, link.id)).toMatchObject({
      ok: false,
      message: "(#4) Application request limit reached",
    });
    expect(await (await owner.call(`/api/links/by-slug/${link.linkSlug}`)).json()).toMatchObject({
      description: "A new description",
    });
  });
});

test("without the settings nothing is sent, and scrape is null", async () => {
  const graph = startFakeFacebookGraph();
  // Only the Graph URL is set: without app credentials LinkPrev must not call it.
  const server = await startTestServer({ FACEBOOK_GRAPH_URL: graph.url, APP_WORKERS: "0" });
  try {
    expect(server.ctx.facebook).toBeNull();
    const owner = await apiClient(server, null);
    const link = await createLink(owner);
    await edit(owner, link.linkSlug, { title: "Second title" });
    expect((await owner.call(`/api/links/${link.id}/versions`, { method: "POST" })).status).toBe(201);
    expect(await facebookScrape(owner, link.id)).toBeNull();
  } finally {
    await server.close();
    graph.stop();
  }
  // Without app credentials no re-scrape is ever queued (ctx.facebook is null): the fake heard nothing.
  expect(graph.requests).toEqual([]);
});

test("the app id and secret go together, and the secret is never printed", () => {
  const base = { DATA_DIR: "/tmp/linkprev-config-test" };
  const failure = (env: Record<string, string>) => {
    try {
      loadConfig({}, { ...base, ...env });
    } catch (error) {
      return String(error);
    }
    return "";
  };
  expect(failure({ FACEBOOK_APP_ID: "123" })).toContain("set both FACEBOOK_APP_ID and FACEBOOK_APP_SECRET");
  const secretOnly = failure({ FACEBOOK_APP_SECRET: "top-secret-value" });
  expect(secretOnly).toContain("set both FACEBOOK_APP_ID and FACEBOOK_APP_SECRET");
  expect(secretOnly).not.toContain("top-secret-value");
  expect(
    failure({
      FACEBOOK_APP_ID: "123",
      FACEBOOK_APP_SECRET: "top-secret-value",
      FACEBOOK_GRAPH_URL: "ftp://graph.example",
    }),
  ).toContain("FACEBOOK_GRAPH_URL");
  expect(loadConfig({}, { ...base, FACEBOOK_APP_ID: "123", FACEBOOK_APP_SECRET: "s" }).facebook).toEqual({
    appId: "123",
    appSecret: "s",
    graphUrl: "https://graph.facebook.com",
  });
  expect(loadConfig({}, base).facebook).toBeNull();
});

test("an unreachable or silent Graph API is ok: false in our words, never with the secret", async () => {
  const closed = startFakeFacebookGraph();
  closed.stop();
  const outcomes: ScrapeOutcome[] = [];
  const unreachable = new FacebookRescraper(
    { appId: "1", appSecret: "top-secret-value", graphUrl: closed.url },
    { clock: systemClock, log: createLogger("text") },
  );
  unreachable.request("https://lp.example/go/a/b", async (outcome) => void outcomes.push(outcome));
  await unreachable.settled();
  // A server that accepts the request and never answers: the timeout ends it.
  const silent = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Promise<Response>(() => {}) });
  try {
    const slow = new FacebookRescraper(
      { appId: "1", appSecret: "top-secret-value", graphUrl: `http://127.0.0.1:${silent.port}` },
      { clock: systemClock, log: createLogger("text") },
      200,
    );
    slow.request("https://lp.example/go/a/b", async (outcome) => void outcomes.push(outcome));
    await slow.settled();
  } finally {
    void silent.stop(true);
  }
  expect(outcomes).toEqual([
    { at: expect.any(Date), ok: false, message: "Could not reach Facebook" },
    { at: expect.any(Date), ok: false, message: "Facebook did not answer within 0.2 s" },
  ]);
});
