import { serveOnLoopback } from "./loopback.ts";

// A fake Google Web Risk speaking its REST Lookup API: GET /v1/uris:search?threatTypes=…&uri=…&key=… answers
// {"threat": {"threatTypes": [...], "expireTime": …}} for a listed URI and {} otherwise; a wrong key is a 400.
export type FakeWebRisk = {
  url: string;
  key: string;
  requests: Array<{ uri: string; threatTypes: string[] }>;
  stop: () => void;
};

export function startFakeWebRisk(listed: Record<string, string[]>): FakeWebRisk {
  const fake: FakeWebRisk = { url: "", key: "test-web-risk-key", requests: [], stop: () => loopback.stop() };
  const loopback = serveOnLoopback((request) => {
    const url = new URL(request.url);
    if (url.pathname !== "/v1/uris:search" || request.method !== "GET")
      return Response.json({ error: { code: 404, message: "Not found" } }, { status: 404 });
    if (url.searchParams.get("key") !== fake.key)
      return Response.json(
        {
          error: { code: 400, message: "API key not valid. Please pass a valid API key.", status: "INVALID_ARGUMENT" },
        },
        { status: 400 },
      );
    const uri = url.searchParams.get("uri") ?? "";
    const threatTypes = url.searchParams.getAll("threatTypes");
    if (!uri || threatTypes.length === 0)
      return Response.json(
        { error: { code: 400, message: "uri and threatTypes are required", status: "INVALID_ARGUMENT" } },
        { status: 400 },
      );
    fake.requests.push({ uri, threatTypes });
    const types = (listed[uri] ?? []).filter((type) => threatTypes.includes(type));
    if (types.length === 0) return Response.json({});
    return Response.json({ threat: { threatTypes: types, expireTime: new Date(Date.now() + 300_000).toISOString() } });
  });
  fake.url = loopback.url;
  return fake;
}
