// The link health job (src/rules/health.ts) against local servers, on SQLite and PostgreSQL: an answering target,
// a 404, one that never answers, a redirect chain, a server that refuses HEAD, and the pause between two
// requests to one host. Two failures in a row make a link broken; the API shows the last check.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { checkLinkHealth } from "../../src/rules/health.ts";
import { eventually } from "../helpers/eventually.ts";
import { apiClient, startTestServer, type ApiClient, type TestServer } from "../helpers/server.ts";

const HOST_GAP_MS = 250;
let server: TestServer;
let scheduled: TestServer;
let owner: ApiClient;
/** When each request reached the target server, and how. */
const seen: Array<{ at: number; method: string; path: string }> = [];
let target: ReturnType<typeof Bun.serve>;
let targetBase: string;

beforeAll(async () => {
  target = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const path = new URL(request.url).pathname;
      seen.push({ at: performance.now(), method: request.method, path });
      if (path === "/ok" || path === "/landed") return new Response("fine");
      if (path === "/gone") return new Response("no", { status: 404 });
      if (path === "/r1") return Response.redirect(`${targetBase}/r2`, 301);
      if (path === "/r2") return Response.redirect(`${targetBase}/landed`, 302);
      if (path === "/no-head")
        return request.method === "HEAD" ? new Response(null, { status: 405 }) : new Response("fine");
      if (path === "/slow") await Bun.sleep(5_000);
      return new Response("?", { status: 500 });
    },
  });
  targetBase = `http://127.0.0.1:${target.port}`;
  const env = {
    FETCH_ALLOW_PRIVATE: "127.0.0.1/32",
    TEST_FETCH_DEADLINE_MS: "1000",
    LINK_HEALTH_HOST_GAP_MS: String(HOST_GAP_MS),
  };
  [server, scheduled] = await Promise.all([
    startTestServer({ ...env, LINK_HEALTH_EVERY_MS: "0" }),
    startTestServer({ ...env, LINK_HEALTH_EVERY_MS: "200" }),
  ]);
  owner = await apiClient(server, "pro", "checker");
});
afterAll(async () => {
  await Promise.all([server.close(), scheduled.close()]);
  target.stop(true);
});

type Health = {
  status: string;
  checkedAt: string | null;
  httpStatus: number | null;
  finalUrl: string | null;
  failedUrl: string | null;
};
async function createLink(client: ApiClient, slug: string, targetUrl: string, rules?: unknown[]) {
  const response = await client.call("/api/links", {
    method: "POST",
    json: { targetUrl, title: "T", description: "D", customLinkSlug: slug, ...(rules ? { rules } : {}) },
  });
  expect(response.status).toBe(201);
}
const healthOf = async (client: ApiClient, slug: string) =>
  ((await (await client.call(`/api/links/by-slug/${slug}`)).json()) as { health: Health }).health;
/** Each request reached the server at least the host gap after the one before it (the gap runs from its end). */
function expectSpaced(requests: typeof seen) {
  const gaps = requests
    .slice(1)
    .map((request, i) => ({ request: `${request.method} ${request.path}`, afterMs: request.at - requests[i]!.at }));
  expect(gaps.filter((gap) => gap.afterMs < HOST_GAP_MS - 2)).toEqual([]);
}
const pass = (recheckAfterMs?: number) => {
  const { database, fetcher, clock, publicUrl } = server.ctx.links;
  return checkLinkHealth({ database, fetcher: fetcher!, clock, publicUrl, hostGapMs: HOST_GAP_MS, recheckAfterMs });
};

test("ok, 404, no answer, a redirect chain, a refused HEAD; broken after the second failure in a row; one request per host at a time, spaced", async () => {
  await createLink(owner, "fine", `${targetBase}/ok`);
  await createLink(owner, "missing", `${targetBase}/gone`);
  await createLink(owner, "silent", `${targetBase}/slow`);
  await createLink(owner, "chain", `${targetBase}/r1`);
  await createLink(owner, "nohead", `${targetBase}/no-head`);
  await createLink(owner, "ruled", `${targetBase}/ok`, [{ when: { device: "ios" }, targetUrl: `${targetBase}/gone` }]);
  expect((await healthOf(owner, "fine")).status).toBe("unchecked");

  seen.length = 0;
  const first = await pass();
  expect(first.becameBroken).toEqual([]);
  expect(await healthOf(owner, "fine")).toMatchObject({ status: "ok", httpStatus: 200, finalUrl: `${targetBase}/ok` });
  expect(await healthOf(owner, "chain")).toMatchObject({
    status: "ok",
    httpStatus: 200,
    finalUrl: `${targetBase}/landed`,
  });
  expect(await healthOf(owner, "nohead")).toMatchObject({ status: "ok", httpStatus: 200 });
  // One failure may be a blip: not broken yet, but the status is shown.
  expect(await healthOf(owner, "missing")).toMatchObject({ status: "unchecked", httpStatus: 404 });
  expect(await healthOf(owner, "silent")).toMatchObject({ status: "unchecked", httpStatus: null });
  expect((await healthOf(owner, "fine")).checkedAt).not.toBeNull();
  // HEAD first; GET only where HEAD was refused.
  expect(seen.filter((request) => request.method === "GET").map((request) => request.path)).toEqual(["/no-head"]);
  // One host: every request (redirect hops and the GET after a refused HEAD too) at least the gap after the last.
  expect(seen).toHaveLength(10);
  expectSpaced(seen);

  const second = await pass();
  expect(second.becameBroken).toHaveLength(3);
  expect(await healthOf(owner, "missing")).toMatchObject({ status: "broken", httpStatus: 404 });
  expect(await healthOf(owner, "silent")).toMatchObject({ status: "broken", httpStatus: null });
  // A rule's target is checked too: the link is as healthy as its worst target.
  expect(await healthOf(owner, "ruled")).toMatchObject({
    status: "broken",
    httpStatus: 404,
    finalUrl: `${targetBase}/gone`,
    failedUrl: `${targetBase}/gone`,
  });
  expect(await healthOf(owner, "missing")).toMatchObject({ failedUrl: `${targetBase}/gone` });
  expect(await healthOf(owner, "fine")).toMatchObject({ status: "ok", failedUrl: null });
  // A third failure does not mark it broken again (the link.broken event fires once).
  expect((await pass()).becameBroken).toEqual([]);
  // The schedule takes only links not checked for LINK_HEALTH_EVERY_MS: a restart does not check them all again.
  seen.length = 0;
  expect((await pass(60_000)).checked).toBe(0);
  expect(seen).toEqual([]);
}, 60_000);

test("a check's redirect hops on one host and its GET after a refused HEAD wait for the host gap like first requests", async () => {
  const polite: typeof seen = [];
  let base = "";
  const host = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request): Response => {
      const path = new URL(request.url).pathname;
      polite.push({ at: performance.now(), method: request.method, path });
      if (path === "/a") return Response.redirect(`${base}/b`, 301);
      if (path === "/b") return Response.redirect(`${base}/c`, 302);
      if (path === "/refuses-head")
        return new Response(request.method === "HEAD" ? null : "fine", {
          status: request.method === "HEAD" ? 405 : 200,
        });
      return new Response("fine");
    },
  });
  base = `http://127.0.0.1:${host.port}`;
  try {
    const client = await apiClient(server, "pro", "polite");
    await createLink(client, "hops", `${base}/a`);
    await createLink(client, "nohead", `${base}/refuses-head`);
    await pass();
    expect(await healthOf(client, "hops")).toMatchObject({ status: "ok", finalUrl: `${base}/c` });
    expect(await healthOf(client, "nohead")).toMatchObject({ status: "ok", httpStatus: 200 });
    expect(polite.map((request) => `${request.method} ${request.path}`).sort()).toEqual([
      "GET /refuses-head",
      "HEAD /a",
      "HEAD /b",
      "HEAD /c",
      "HEAD /refuses-head",
    ]);
    expectSpaced(polite);
  } finally {
    host.stop(true);
  }
});

test("the job runs by itself every LINK_HEALTH_EVERY_MS", async () => {
  const client = await apiClient(scheduled, "pro", "scheduled");
  await createLink(client, "fine", `${targetBase}/ok`);
  await eventually(async () => expect((await healthOf(client, "fine")).status).toBe("ok"), {
    what: "the scheduled check",
  });
});
