// A request whose Host header is missing (HTTP/1.0) or malformed (a bad port, spaces, a broken bracket) has no URL
// the app can read: it is refused here with a 400, before the app (or an app worker rebuilding the request from
// its URL) would fail on it with a 500 and a stack in the log.
import type { AnyRawHandler } from "./path-encoding.ts";

const ANSWER = "Bad request: the Host header is missing or malformed\n";

/** The 400 for a request without a readable URL, else null. */
export function badHostAnswer(request: Request): Response | null {
  if (URL.canParse(request.url)) return null;
  return new Response(request.method === "HEAD" ? null : ANSWER, {
    status: 400,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/**
 * The request thread's raw routes (src/compose/raw-routes.ts) with that 400 too: Bun routes them by path whatever
 * the Host, so their handlers would meet the same unreadable URL. One URL.canParse per request (a fraction of a
 * microsecond).
 */
export const refuseBadHosts = <Routes extends Record<string, Record<string, AnyRawHandler>>>(
  routes: Routes,
  finish: (answer: Response) => Response,
): Routes =>
  Object.fromEntries(
    Object.entries(routes).map(([path, methods]) => [
      path,
      Object.fromEntries(
        Object.entries(methods).map(([method, handler]) => [
          method,
          (request: Request, server: unknown) => {
            const badHost = badHostAnswer(request);
            return badHost === null ? handler(request, server) : finish(badHost);
          },
        ]),
      ),
    ]),
  ) as Routes;
