// Caddy's on-demand TLS check: GET /tls/ask?domain=NAME answers 200 only for a served custom domain (verified or
// failing, of an active account) named byte for byte as stored, else 403: another spelling (upper case, a port, a
// path, fullwidth or soft-hyphenated letters) would get a certificate of its own. From the in-memory host map: no
// database read, no DNS, fail closed.
// Served on a listener of its own (TLS_ASK_HOST:TLS_ASK_PORT, loopback by default), never on the public port.
import type { HostDomain } from "./host-map.ts";

export const ASK_PATH = "/tls/ask";

/**
 * The ask listener's routes, as Bun.serve's `routes`: the server lists them (RunningServer.askRoutes) so that the
 * authorization matrix and the fuzz suite must cover each one.
 */
export function askRoutes(hosts: { exactly(name: string): HostDomain | undefined }) {
  const answer = (status: number) =>
    new Response(status === 200 ? "ok" : "no", {
      status,
      headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" },
    });
  const ask = (request: Request): Response => {
    const name = new URL(request.url).searchParams.get("domain") ?? "";
    try {
      return answer(hosts.exactly(name) !== undefined ? 200 : 403);
    } catch {
      return answer(403);
    }
  };
  return { [ASK_PATH]: { GET: ask, HEAD: ask } };
}

/** Whatever the routes do not match: another method on the ask path, or any other path. */
export const askFallback = (request: Request): Response =>
  new URL(request.url).pathname === ASK_PATH
    ? new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } })
    : new Response("Not found", { status: 404 });
