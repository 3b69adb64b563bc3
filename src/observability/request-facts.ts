// What the request thread needs to log and count a request the app answered: its route pattern and who asked.
// The app (in a worker, or on the request thread with APP_WORKERS=0) tells them in two headers of ours, which the
// request thread takes off before answering. The request id goes the other way, in X-Request-Id.
import { Elysia } from "elysia";

export const REQUEST_ID_HEADER = "x-request-id";
const ROUTE_HEADER = "x-linkprev-route";
const USER_HEADER = "x-linkprev-user";
/** A request id from a trusted proxy is kept only if it looks like one (no spaces, quotes or control characters). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,200}$/;
/** A request that matched no route (a 404): logged and counted under this, never under its raw path. */
export const UNMATCHED_ROUTE = "(unmatched)";

/** The incoming X-Request-Id when a trusted proxy set a sane one; a new id otherwise. */
export function requestIdFor(request: Request, trustProxy: boolean): string {
  const given = trustProxy ? request.headers.get(REQUEST_ID_HEADER) : null;
  return given !== null && SANE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

type Facts = { route: string; userId: number | undefined };
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
    .onAfterHandle({ as: "global" }, (context) => void remember(context.request, context.route, (context as Viewed).viewer))
    .onError({ as: "global" }, (context) => void remember(context.request, context.route, (context as Viewed).viewer));

/** A copy of the response whose headers can be changed (Response.redirect's cannot). */
function mutable(response: Response): Response {
  try {
    // Throws on immutable headers, changes nothing otherwise.
    response.headers.delete(USER_HEADER + "-probe");
    return response;
  } catch {
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }
}

/** The app's answer with its route pattern and user id in our headers, for the request thread. */
export async function handleNotingFacts(app: { handle(request: Request): Promise<Response> }, request: Request): Promise<Response> {
  const response = mutable(await app.handle(request));
  const facts = seen.get(request);
  response.headers.set(ROUTE_HEADER, facts?.route ?? UNMATCHED_ROUTE);
  if (facts?.userId !== undefined) response.headers.set(USER_HEADER, String(facts.userId));
  return response;
}

/**
 * Takes our headers off the response (they never reach the client) and adds its request id. `route`: the pattern
 * of a route the request thread answered itself (the app's answers name theirs).
 */
export function takeFacts(response: Response, requestId: string, route = UNMATCHED_ROUTE): { response: Response; route: string; userId: number | undefined } {
  const answer = mutable(response);
  route = answer.headers.get(ROUTE_HEADER) || route;
  const user = answer.headers.get(USER_HEADER);
  answer.headers.delete(ROUTE_HEADER);
  answer.headers.delete(USER_HEADER);
  answer.headers.set(REQUEST_ID_HEADER, requestId);
  return { response: answer, route, userId: user ? Number(user) : undefined };
}
