// Two LinkPrev nodes on one real PostgreSQL (a throwaway cluster on a Unix socket): they migrate once when
// started together, an edit on one is served by the other within a second, counts are exact across both
// after graceful stops, and a kill -9 of one leaves the other serving. Each node is its own `linkprev serve`
// process, as in production. Skipped, saying so, only where PostgreSQL cannot be installed.
import { beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { postgresInstalled, usePgNodes } from "../helpers/cluster.ts";
import { apiCall, seedPgUserWithToken, stopNode, type Node } from "../helpers/nodes.ts";
import { crawlerAgents } from "../helpers/server.ts";
import { eventually } from "../helpers/eventually.ts";

const cli = join(import.meta.dir, "../../cli/linkprev.ts");
const available = postgresInstalled("the multi-node tests");

const BROWSER = crawlerAgents.people["firefox-linux"]!;
const CRAWLER = crawlerAgents.crawlers.x![0]!;

const go = (node: Node, path: string, agent = BROWSER) =>
  fetch(`${node.url}/go/${path}`, { redirect: "manual", headers: { "user-agent": agent } });
const api = (node: Node, token: string, path: string, init: { method?: string; json?: unknown } = {}) =>
  apiCall(node.url, token, path, init);

describe.skipIf(!available)("two nodes on one PostgreSQL", () => {
  // Started together: both apply migrations at start, under one lock.
  const pg = usePgNodes([1, 2]);
  let db: SQL;
  let a: Node;
  let b: Node;
  beforeAll(() => {
    db = pg().db;
    [a, b] = pg().nodes;
  });
  const startPgNode = (slot: number, env: Record<string, string> = {}) =>
    pg().node({ DATABASE_URL: pg().databaseUrl, NODE_SLOT: String(slot), ...env });
  const seedUserWithToken = async (slug: string) => (await seedPgUserWithToken(db, slug)).token;

  test("nodes started together migrate once and both serve", async () => {
    const rows = await db`SELECT name, count(*)::int AS n FROM __migrations GROUP BY name`;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.n).toBe(1);
    expect((await fetch(`${a.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
  });

  test("a link created and edited on A is what B serves, within a second", async () => {
    const token = await seedUserWithToken("ana");
    // B looks the address up first, so its cache holds "not found" until A's change reaches it.
    expect((await go(b, "ana/launch")).status).toBe(404);
    const created = await api(a, token, "/api/links", {
      method: "POST",
      json: { targetUrl: "https://example.com/one", title: "Launch", description: "Day one", customLinkSlug: "launch" },
    });
    expect(created.status).toBe(201);
    const link = await created.json();

    // Another node learns of a change within a second (NOTIFY), long before its cache entry would expire.
    const servedBy = (node: Node, expected: string) =>
      eventually(async () => expect((await go(node, "ana/launch")).headers.get("location")).toBe(expected), {
        timeoutMs: 1000,
        what: `${expected} served`,
      });
    await servedBy(b, "https://example.com/one");

    const edited = await api(a, token, "/api/links/by-slug/launch", {
      method: "PUT",
      json: { targetUrl: "https://example.com/two", title: "Launch", description: "Day two" },
    });
    expect(edited.status).toBe(200);
    await servedBy(b, "https://example.com/two");
    const preview = await (await go(b, "ana/launch", CRAWLER)).text();
    expect(preview).toContain("Day two");

    expect((await api(a, token, `/api/links/${link.id}`, { method: "DELETE" })).status).toBe(204);
    await eventually(async () => expect((await go(b, "ana/launch")).status).toBe(404), {
      timeoutMs: 1000,
      what: "the deleted link gone on the other node",
    });
  });

  test("a node whose LISTEN connection dropped clears its cache: a change it could not hear is served", async () => {
    const token = await seedUserWithToken("dee");
    expect(
      (
        await api(a, token, "/api/links", {
          method: "POST",
          json: { targetUrl: "https://example.com/before", title: "Gap", description: "d", customLinkSlug: "gap" },
        })
      ).status,
    ).toBe(201);
    // B learns of the new address from A's announcement (its filter of existing addresses), then caches the link.
    await eventually(
      async () => expect((await go(b, "dee/gap")).headers.get("location")).toBe("https://example.com/before"),
      { timeoutMs: 1000, what: "the new link served by B" },
    );
    // Every node's LISTEN connection goes; a change made meanwhile announces nothing (written behind LinkPrev's back).
    const dropped =
      await db`SELECT count(pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE query ILIKE 'LISTEN%' AND pid <> pg_backend_pid()`;
    expect(dropped[0].n).toBeGreaterThanOrEqual(2);
    await db`UPDATE links SET target_url = 'https://example.com/after' WHERE link_slug = 'gap'`;
    // Bun reconnects within a second or so; on re-subscribing B drops everything it held.
    const locationOf = async () => (await go(b, "dee/gap")).headers.get("location");
    await eventually(async () => expect(await locationOf()).toBe("https://example.com/after"), {
      timeoutMs: 5000,
      what: "the change made while B was not listening",
    });
    // And it hears announcements again.
    expect(
      (
        await api(a, token, "/api/links/by-slug/gap", {
          method: "PUT",
          json: { targetUrl: "https://example.com/heard", title: "Gap", description: "d" },
        })
      ).status,
    ).toBe(200);
    await eventually(async () => expect(await locationOf()).toBe("https://example.com/heard"), {
      timeoutMs: 1000,
      what: "the announced change",
    });
  });

  test("the sign-in rate limit is one counter for the cluster, whichever node is asked", async () => {
    const limited = await Promise.all([
      startPgNode(3, { AUTH_RATE_LIMIT: "4" }),
      startPgNode(4, { AUTH_RATE_LIMIT: "4" }),
    ]);
    try {
      // The limit counts per minute: start well inside a window, so that all five requests fall into one.
      const intoWindow = Date.now() % 60_000;
      if (intoWindow > 55_000) await Bun.sleep(60_000 - intoWindow + 100);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await fetch(`${limited[i % 2]!.url}/api/auth/google`, { redirect: "manual" })).status);
      expect(statuses.slice(0, 4).every((status) => status !== 429)).toBe(true);
      expect(statuses[4]).toBe(429);
      // What the database keeps of the client: a hash, never the address.
      const keys = (await db`SELECT key FROM rate_limits`).map((row: { key: string }) => row.key);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await Promise.all(limited.map((node) => stopNode(node)));
    }
  });

  test("views sent to both nodes are counted exactly once both stop gracefully", async () => {
    const token = await seedUserWithToken("bea");
    const created = await api(a, token, "/api/links", {
      method: "POST",
      json: { targetUrl: "https://example.com/count", title: "Count", description: "me", customLinkSlug: "count" },
    });
    const { id } = await created.json();
    // B learns of the new link from A's notification: the burst starts once B has answered it (one person's view on
    // B, counted below with the burst's), so it measures counting, not how fast a loaded machine delivers NOTIFY.
    await eventually(async () => expect((await go(b, "bea/count")).status).toBe(302), {
      what: "B to serve the new link",
    });
    const people = 300;
    const crawlers = 120;
    const answers = await Promise.all([
      ...Array.from({ length: people }, (_, i) => go(i % 2 ? a : b, "bea/count")),
      ...Array.from({ length: crawlers }, (_, i) => go(i % 2 ? a : b, "bea/count", CRAWLER)),
    ]);
    expect(answers.filter((r) => r.status === 302).length).toBe(people);
    expect(answers.filter((r) => r.status === 200).length).toBe(crawlers);
    await Promise.all([stopNode(a), stopNode(b)]);

    const [stored] =
      await db`SELECT count(*) FILTER (WHERE NOT is_bot)::int AS human, count(*) FILTER (WHERE is_bot)::int AS bot FROM views WHERE link_id = ${id}`;
    const [rolled] =
      await db`SELECT coalesce(sum(human), 0)::int AS human, coalesce(sum(bot), 0)::int AS bot, count(DISTINCT slot)::int AS slots FROM view_rollups WHERE link_id = ${id}`;
    expect(stored).toEqual({ human: people + 1, bot: crawlers });
    expect(rolled).toEqual({ human: people + 1, bot: crawlers, slots: 2 });
    const [platform] =
      await db`SELECT platform, sum(bot)::int AS n FROM view_rollups WHERE link_id = ${id} AND platform <> '' GROUP BY platform`;
    expect(platform).toEqual({ platform: "x", n: crawlers });
    // One person (one address, one agent) on both nodes: each node's salt is its own, so they count once per node
    // (decision 0010); each node's hash is in the day's set.
    const [audience] =
      await db`SELECT coalesce(sum(unique_humans), 0)::int AS uniques, (SELECT count(*)::int FROM view_visitors WHERE link_id = ${id}) AS hashes FROM view_rollups WHERE link_id = ${id}`;
    expect(audience).toEqual({ uniques: 2, hashes: 2 });
  });

  test("kill -9 of one node: the other keeps serving, and a restart finds every committed link", async () => {
    [a, b] = await Promise.all([startPgNode(1), startPgNode(2)]);
    const token = await seedUserWithToken("cai");
    expect(
      (
        await api(a, token, "/api/links", {
          method: "POST",
          json: { targetUrl: "https://example.com/kept", title: "Kept", description: "safe", customLinkSlug: "kept" },
        })
      ).status,
    ).toBe(201);
    await stopNode(a, { signal: "SIGKILL" });
    expect((await go(b, "cai/kept")).headers.get("location")).toBe("https://example.com/kept");
    a = await startPgNode(1);
    expect((await go(a, "cai/kept")).headers.get("location")).toBe("https://example.com/kept");
  });
});

describe.skipIf(!available)("an unreachable database", () => {
  test("stops start-up after the bounded wait with one line that names the server and no password", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "linkprev-nodb-"));
    const child = Bun.spawn([process.execPath, cli, "serve", "--port", "0", "--data", dataDir], {
      env: {
        ...process.env,
        DATABASE_URL: "postgres://ana:s3cret-pass@localhost/linkprev?host=/tmp/lp-no-such-dir",
        DATABASE_WAIT_SECONDS: "1",
      },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(await child.exited).toBe(1);
    const stderr = (await new Response(child.stderr).text()).trim();
    rmSync(dataDir, { recursive: true, force: true });
    expect(stderr.split("\n").length).toBe(1);
    expect(stderr).toContain("Cannot reach PostgreSQL at /tmp/lp-no-such-dir/linkprev");
    expect(stderr).not.toContain("s3cret-pass");
  });
});
