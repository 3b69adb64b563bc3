// What an operator sees: Prometheus metrics (behind a token, or on their own listener), request ids on every
// answer but /go's, and one JSON log line per request without any secret in it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { newTestDatabase } from "../helpers/postgres-test-cluster.ts";
import { startNode, stopNode } from "../helpers/nodes.ts";
import {
  apiClient,
  crawlerAgents,
  seedApiToken,
  seedLink,
  seedSession,
  seedUser,
  startTestServer,
  testEngine,
  type TestServer,
} from "../helpers/server.ts";
import { postgresTestDb, sqliteTestDb } from "../helpers/test-db.ts";
import { join } from "node:path";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
const PERSON = crawlerAgents.people["firefox-linux"]!;

const scrape = async (url: string, token?: string) => {
  const response = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.status).toBe(200);
  return parsePrometheusTextFormat(await response.text());
};

/** The value of a counter or gauge with exactly these labels (0 when absent). */
function valueOf(families: MetricFamily[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  const metric = family?.metrics.find(
    (m) =>
      Object.entries(labels).every(([key, value]) => m.labels?.[key] === value) &&
      Object.keys(m.labels ?? {}).length === Object.keys(labels).length,
  );
  return metric ? Number(metric.value) : 0;
}

describe("metrics with a token", () => {
  let server: TestServer;
  let userSlug: string;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN });
    const user = await seedUser(server.sql, { userSlug: "metrics" });
    userSlug = user.userSlug;
    await seedLink(server.sql, user.id, { linkSlug: "counted" });
  });
  afterAll(() => server.close());

  test("are refused without the token, or with a wrong one", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } })).status,
    ).toBe(401);
    expect((await fetch(`${server.url}/metrics`, { headers: { authorization: "Bearer short" } })).status).toBe(401);
  });

  test("/go counters move by exactly the requests sent: people, crawlers by platform, not found", async () => {
    const before = await scrape(server.url, METRICS_TOKEN);
    const go = (path: string, agent: string) =>
      fetch(`${server.url}/go/${path}`, { headers: { "user-agent": agent }, redirect: "manual" }).then((r) =>
        r.arrayBuffer(),
      );
    const sent = { people: 7, slack: 3, discord: 2, facebook: 4, missing: 5 };
    for (let i = 0; i < sent.people; i++) await go(`${userSlug}/counted`, PERSON);
    for (let i = 0; i < sent.slack; i++) await go(`${userSlug}/counted`, crawlerAgents.crawlers.slack![0]!);
    for (let i = 0; i < sent.discord; i++) await go(`${userSlug}/counted`, crawlerAgents.crawlers.discord![0]!);
    for (let i = 0; i < sent.facebook; i++) await go(`${userSlug}/counted`, crawlerAgents.crawlers.facebook![0]!);
    for (let i = 0; i < sent.missing; i++) await go(`${userSlug}/nope-${i}`, PERSON);
    await server.flushViews();
    const after = await scrape(server.url, METRICS_TOKEN);
    const moved = (name: string, labels?: Record<string, string>) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect({
      redirect: moved("linkprev_go_responses_total", { kind: "redirect" }),
      slack: moved("linkprev_go_responses_total", { kind: "preview", platform: "slack" }),
      discord: moved("linkprev_go_responses_total", { kind: "preview", platform: "discord" }),
      facebook: moved("linkprev_go_responses_total", { kind: "preview", platform: "facebook" }),
      x: moved("linkprev_go_responses_total", { kind: "preview", platform: "x" }),
      notFound: moved("linkprev_go_responses_total", { kind: "not_found" }),
      written: moved("linkprev_views_written_total"),
      recorded: moved("linkprev_views_recorded_total"),
      dropped: moved("linkprev_views_dropped_total"),
      lookups: moved("linkprev_link_cache_hits_total") + moved("linkprev_link_cache_misses_total"),
    }).toEqual({
      redirect: 7,
      slack: 3,
      discord: 2,
      facebook: 4,
      x: 0,
      notFound: 5,
      written: 16,
      recorded: 16,
      dropped: 0,
      lookups: 21,
    });
    expect(valueOf(after, "linkprev_views_buffered")).toBe(0);
    expect(valueOf(after, "linkprev_link_cache_entries")).toBeGreaterThan(0);
    const batches = after.find((f) => f.name === "linkprev_view_batch_size")!;
    expect(batches.type).toBe("HISTOGRAM");
    expect(Number(batches.metrics[0]!.sum)).toBeGreaterThanOrEqual(16);
    // Default process metrics: memory and event-loop lag.
    expect(valueOf(after, "process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(after.some((f) => f.name === "nodejs_eventloop_lag_seconds")).toBe(true);
  });

  test("requests are counted by route pattern and status, never by raw slug or id", async () => {
    const client = await apiClient(server, null, "patterns");
    await seedLink(server.sql, client.userId, { linkSlug: "secret-slug-123" });
    expect((await client.call("/api/links/by-slug/secret-slug-123")).status).toBe(200);
    expect((await client.call("/api/links/by-slug/absent")).status).toBe(404);
    await (await fetch(`${server.url}/no/such/page-4711`)).arrayBuffer();
    const text = await (
      await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    expect(text).not.toContain("secret-slug-123");
    expect(text).not.toContain("page-4711");
    const families = parsePrometheusTextFormat(text);
    expect(
      valueOf(families, "linkprev_http_requests_total", {
        method: "GET",
        route: "/api/links/by-slug/:linkSlug",
        status: "200",
      }),
    ).toBe(1);
    expect(
      valueOf(families, "linkprev_http_requests_total", {
        method: "GET",
        route: "/api/links/by-slug/:linkSlug",
        status: "404",
      }),
    ).toBe(1);
    expect(
      valueOf(families, "linkprev_http_requests_total", { method: "GET", route: "(unmatched)", status: "404" }),
    ).toBe(1);
    expect(families.find((f) => f.name === "linkprev_http_request_duration_seconds")?.type).toBe("HISTOGRAM");
    expect(text).toContain(
      'linkprev_http_request_duration_seconds_count{method="GET",route="/api/links/by-slug/:linkSlug",status="200"} 1',
    );
  });
});

test("metrics on their own listener need no token, and the main port does not serve them", async () => {
  const server = await startTestServer({ METRICS_PORT: "0" });
  try {
    expect(server.metricsUrl).not.toBeNull();
    const families = await scrape(server.metricsUrl!);
    expect(families.some((f) => f.name === "linkprev_go_responses_total")).toBe(true);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect(server.routes).not.toContain("GET /metrics");
  } finally {
    await server.close();
  }
});

test("with APP_WORKERS=0 (the app on the request thread) requests are still counted by pattern and given ids", async () => {
  const server = await startTestServer({ APP_WORKERS: "0", METRICS_TOKEN });
  try {
    const client = await apiClient(server, null, "inline");
    const response = await client.call("/api/links/stats");
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect([...response.headers.keys()].filter((name) => name.startsWith("x-linkprev"))).toEqual([]);
    const families = await scrape(server.url, METRICS_TOKEN);
    expect(
      valueOf(families, "linkprev_http_requests_total", { method: "GET", route: "/api/links/stats", status: "200" }),
    ).toBe(1);
  } finally {
    await server.close();
  }
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("a server with the defaults", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  test("metrics are off by default", async () => {
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect(server.metricsUrl).toBeNull();
  });

  test("request ids: every answer but /go's carries one; an untrusted client's is replaced", async () => {
    const user = await seedUser(server.sql, { userSlug: "ids" });
    await seedLink(server.sql, user.id, { linkSlug: "go" });
    for (const path of ["/api/version", "/", "/api/links", "/healthz", "/favicon.ico", "/no-such-page"]) {
      const response = await fetch(`${server.url}${path}`, { headers: { "x-request-id": "client-chosen-id" } });
      await response.arrayBuffer();
      expect({ path, id: response.headers.get("x-request-id") }).toEqual({ path, id: expect.stringMatching(UUID) });
    }
    for (const agent of [PERSON, crawlerAgents.crawlers.slack![0]!]) {
      const response = await fetch(`${server.url}/go/ids/go`, {
        headers: { "user-agent": agent },
        redirect: "manual",
      });
      await response.arrayBuffer();
      expect(response.headers.get("x-request-id")).toBeNull();
    }
    // Internal headers never reach the client.
    const answer = await fetch(`${server.url}/api/version`);
    expect([...answer.headers.keys()].filter((name) => name.startsWith("x-linkprev"))).toEqual([]);
  });
});

describe("request ids", () => {
  test("behind a trusted proxy a sane id is kept and an odd one replaced", async () => {
    const server = await startTestServer({ TRUST_PROXY: "true" });
    try {
      const kept = await fetch(`${server.url}/api/version`, { headers: { "x-request-id": "proxy.id-42_A" } });
      expect(kept.headers.get("x-request-id")).toBe("proxy.id-42_A");
      for (const odd of ["has space", 'quote"d', "x".repeat(201), "semi;colon"]) {
        const replaced = await fetch(`${server.url}/api/version`, { headers: { "x-request-id": odd } });
        expect(replaced.headers.get("x-request-id")).toMatch(UUID);
      }
    } finally {
      await server.close();
    }
  });
});

test("a real `linkprev serve` logs one JSON line per request, with no token, cookie or address in it", async () => {
  const databaseUrl = testEngine === "postgres" ? await newTestDatabase() : undefined;
  const node = await startNode({ LOG_FORMAT: "json", ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const sql = databaseUrl ? postgresTestDb(databaseUrl) : sqliteTestDb(join(node.dataDir, "linkprev.db"));
  try {
    const user = await seedUser(sql, { userSlug: "logged" });
    await seedLink(sql, user.id, { linkSlug: "quiet" });
    const { token } = await seedApiToken(sql, user.id);
    const { token: session } = await seedSession(sql, user.id);
    const asToken = await fetch(`${node.url}/api/links/by-slug/quiet?secret=query-secret-value`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(asToken.status).toBe(200);
    const asCookie = await fetch(`${node.url}/api/auth/user`, { headers: { cookie: `lp_session=${session}` } });
    expect(asCookie.status).toBe(200);
    const anonymous = await fetch(`${node.url}/api/links`);
    expect(anonymous.status).toBe(401);
    await (await fetch(`${node.url}/go/logged/quiet`, { redirect: "manual" })).arrayBuffer();
    const ids = [asToken, asCookie, anonymous].map((r) => r.headers.get("x-request-id"));
    await stopNode(node);
    const stdout = await node.stdout;
    for (const secret of [token, session, "query-secret-value"]) expect(stdout).not.toContain(secret);
    const lines = stdout
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requests = lines.filter((line) => line.msg === "request" && line.route !== "/healthz");
    // The start-up lines name the listening address; the request lines never name the client's.
    for (const line of requests) expect(JSON.stringify(line)).not.toContain("127.0.0.1");
    expect(
      requests.map(({ method, route, status, requestId, userId }) => ({ method, route, status, requestId, userId })),
    ).toEqual([
      { method: "GET", route: "/api/links/by-slug/:linkSlug", status: 200, requestId: ids[0], userId: user.id },
      { method: "GET", route: "/api/auth/user", status: 200, requestId: ids[1], userId: user.id },
      { method: "GET", route: "/api/links/", status: 401, requestId: ids[2], userId: undefined },
    ]);
    for (const line of requests) {
      expect(typeof line.durationMs).toBe("number");
      expect(Number.isNaN(Date.parse(line.time as string))).toBe(false);
    }
  } finally {
    await stopNode(node);
    await sql.close();
  }
});
