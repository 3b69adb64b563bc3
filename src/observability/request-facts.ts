// What the request thread and the app tell each other about a request, beside the request itself. The thread
// gives the client address and request id it found where the socket is; the app gives back the route pattern it
// matched and who asked, for the log line and the metrics. None of it travels in headers, so a client can forge
// none of it and no header of ours has to be taken off an answer. With app workers the facts cross as typed
// fields of the worker's messages (src/start/app-workers.ts); the request id goes to the client in X-Request-Id.
import { Elysia } from "elysia";

export const REQUEST_ID_HEADER = "x-request-id";
/** A request id from a trusted proxy is kept only if it looks like one (no spaces, quotes or control characters). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,200}$/;
/** A request that matched no route (a 404): logged and counted under this, never under its raw path. */
export const UNMATCHED_ROUTE = "(unmatched)";

/** The incoming X-Request-Id when a trusted proxy set a sane one; a new id otherwise. */
export function requestIdFor(request: Request, trustProxy: boolean): string {
  const given = trustProxy ? request.headers.get(REQUEST_ID_HEADER) : null;
  return given !== null && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** What the request thread found about a request: the app has no socket to ask. */
export type Origin = { clientAddress: string; requestId: string };
const origins = new WeakMap<Request, Origin>();

/** The request, its origin noted for the app (clientAddressOf, requestIdOf). */
export function withOrigin(request: Request, origin: Origin): Request {
  origins.set(request, origin);
  return request;
}
export const clientAddressOf = (request: Request) => origins.get(request)?.clientAddress ?? "";
export const requestIdOf = (request: Request) => origins.get(request)?.requestId;

/** What the app found about a request it answered. */
export type Facts = { route: string; userId: number | undefined };
const seen = new WeakMap<Request, Facts>();

type Viewed = { viewer?: { user: { id: number } } | null };

const remember = (request: Request, route: string | undefined, viewer: Viewed["viewer"]) => {
  seen.set(request, { route: route || UNMATCHED_ROUTE, userId: viewer?.user.id });
};

/**
 * Notes each request's route pattern and user, on success and on failure alike. Used before the error handler.
 * Elysia builds each context with only the properties its hooks read (it reads their source), so each is named.
 */
export const requestFacts = () =>
  new Elysia({ name: "request-facts" })
    .onAfterHandle(
      { as: "global" },
      (context) => void remember(context.request, context.route, (context as Viewed).viewer),
    )
    .onError({ as: "global" }, (context) => void remember(context.request, context.route, (context as Viewed).viewer));

/** The app's answer to a request (its origin noted by withOrigin), with the facts it noted. */
export async function handleNotingFacts(
  app: { handle(request: Request): Promise<Response> },
  request: Request,
): Promise<Facts & { response: Response }> {
  const response = await app.handle(request);
  const facts = seen.get(request);
  return { response, route: facts?.route ?? UNMATCHED_ROUTE, userId: facts?.userId };
}

/** The response with its X-Request-Id (a copy when its headers cannot be changed, as Response.redirect's cannot). */
export function withRequestId(response: Response, requestId: string): Response {
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } catch {
    const copy = new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    copy.headers.set(REQUEST_ID_HEADER, requestId);
    return copy;
  }
}
