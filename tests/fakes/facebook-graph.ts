// A fake Facebook Graph API for re-scrapes: `POST /{version}/?id={url}&scrape=true&access_token={app_id}|{app_secret}`
// (parameters in the query string or a form body, as the real one takes them). It checks the app access token,
// records every request, answers the scraped object as Facebook does, or Facebook's error JSON when told to
// (`failWith`, or `POST /__test/fail-with` with the same JSON from another process, as the browser tests do).
import { serveOnLoopback } from "./loopback.ts";

export type GraphRequest = { path: string; id: string | null; scrape: string | null; accessToken: string | null };

export type FakeFacebookGraph = {
  url: string;
  /** The settings that point LinkPrev at this fake with its app credentials. */
  env: Record<string, string>;
  requests: GraphRequest[];
  /**
   * Every later request (whose `id` contains `idContains`, when given) is answered with Facebook's error JSON
   * carrying this message (null: answer normally).
   */
  failWith: (error: GraphFailure | null) => void;
  /** Resolves once `count` requests have arrived (at once if they already have). */
  received: (count: number) => Promise<void>;
  stop: () => void;
};

type GraphFailure = { message: string; status?: number; code?: number; idContains?: string };

export function startFakeFacebookGraph(appId = "1234567890", appSecret = "fake-app-secret"): FakeFacebookGraph {
  let failure: GraphFailure | null = null;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const graphError = (status: number, message: string, code: number, type = "OAuthException") =>
    Response.json({ error: { message, type, code, fbtrace_id: "AbCdEfGhIjK" } }, { status });

  const fake: FakeFacebookGraph = {
    url: "",
    env: {},
    requests: [],
    failWith: (next) => (failure = next),
    received: (count) =>
      fake.requests.length >= count
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiting.push({ count, resolve })),
    stop: () => loopback.stop(),
  };

  const loopback = serveOnLoopback(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/__test/fail-with" && request.method === "POST") {
      fake.failWith((await request.json()) as GraphFailure | null);
      return new Response(null, { status: 204 });
    }
    if (request.method !== "POST" || !/^\/(v\d+\.\d+\/?)?$/.test(url.pathname))
      return graphError(400, "Unsupported request", 100, "GraphMethodException");
    const form = request.headers.get("content-type")?.includes("application/x-www-form-urlencoded")
      ? new URLSearchParams(await request.text())
      : null;
    const param = (name: string) => url.searchParams.get(name) ?? form?.get(name) ?? null;
    const recorded: GraphRequest = {
      path: url.pathname,
      id: param("id"),
      scrape: param("scrape"),
      accessToken: param("access_token"),
    };
    fake.requests.push(recorded);
    for (const waiter of waiting.filter((w) => fake.requests.length >= w.count)) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve();
    }
    if (recorded.accessToken !== `${appId}|${appSecret}`)
      return graphError(400, "Invalid OAuth access token - Cannot parse access token", 190);
    if (!recorded.id) return graphError(400, "(#100) The parameter id is required", 100);
    if (failure && recorded.id.includes(failure.idContains ?? ""))
      return graphError(failure.status ?? 400, failure.message, failure.code ?? 1, "OAuthException");
    // The scraped object, as Facebook answers it (the fields of GET /?id={url}).
    return Response.json({
      url: recorded.id,
      type: "website",
      title: "Scraped by the fake Graph API",
      updated_time: new Date().toISOString().replace(/\.\d{3}Z$/, "+0000"),
      id: "9876543210",
    });
  });
  fake.url = loopback.url;
  fake.env = { FACEBOOK_APP_ID: appId, FACEBOOK_APP_SECRET: appSecret, FACEBOOK_GRAPH_URL: loopback.url };
  return fake;
}
