// Caddy's on-demand TLS check: GET /tls/ask?domain=NAME answers 200 only for a served custom domain (verified or
// failing, of an active account), else 403. From the in-memory host map: no database read, no DNS, fail closed.
// Served on a listener of its own (TLS_ASK_HOST:TLS_ASK_PORT, loopback by default), never on the public port.
import type { HostDomain } from "./host-map.ts";

export const ASK_PATH = "/tls/ask";

export function askHandler(hosts: { lookup(host: string): HostDomain | undefined }) {
  const answer = (status: number) => new Response(status === 200 ? "ok" : "no", { status, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  return (request: Request): Response => {
    const url = new URL(request.url);
    if (url.pathname !== ASK_PATH) return new Response("Not found", { status: 404 });
    if (request.method !== "GET" && request.method !== "HEAD") return new Response(null, { status: 405, headers: { Allow: "GET, HEAD" } });
    const name = url.searchParams.get("domain") ?? "";
    try {
      return answer(hosts.lookup(name)?.served === true ? 200 : 403);
    } catch {
      return answer(403);
    }
  };
}
