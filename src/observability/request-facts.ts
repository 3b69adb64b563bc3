// What the request thread and the app tell each other about a request, on the request itself (AppRequest). The
// thread gives the client address and request id it found where the socket is, which handlers receive as `origin`
// on the Elysia context; the app gives back the route pattern it matched and who asked, for the log line and the
// metrics. None of it travels in headers, so a client can forge none of it and no header of ours has to be taken
// off an answer. With app workers the facts cross as typed fields of the worker's messages (src/start/app-workers.ts);
// the request id goes to the client in X-Request-Id.
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

/**
 * What the request thread found about a request (the app has no socket to ask). The rate limiters key on the
 * client address; nothing stores it (PostgreSQL's rate_limits holds a hash, for one minute).
 */
export type Origin = { clientAddress: string; requestId: string };

/** What the app found about a request it answered. */
export type Facts = { route: string; userId: number | undefined };

/** A request handed to the app: its origin, and the facts the app notes as it answers. */
export class AppRequest extends Request {
  facts: Facts = { route: UNMATCHED_ROUTE, userId: undefined };

  constructor(
    input: Request | string,
    init: RequestInit | undefined,
    readonly origin: Origin,
  ) {
    super(input, init);
  }
}

/** The origin of a request handed to the app; one handed without is a bug, never an address made up. */
export function originOf(request: Request): Origin {
  if (request instanceof AppRequest) return request.origin;
  throw new Error("a request reached the app without its origin (src/observability/request-facts.ts AppRequest)");
}

type Viewed = { viewer?: { user: { id: number } } | null };

const remember = (request: Request, route: string | undefined, viewer: Viewed["viewer"]) => {
  if (request instanceof AppRequest) request.facts = { route: route || UNMATCHED_ROUTE, userId: viewer?.user.id };
};

/**
 * Gives every handler the request's `origin`, and notes each request's route pattern and user, on success and on
 * failure alike. Used before the error handler; a plugin whose handlers read `origin` uses it too (Elysia keeps
 * one, by name). Elysia builds each context with only the properties its hooks read (it reads their source), so
 * each is named.
 */
export const requestFacts = () =>
  new Elysia({ name: "request-facts" })
    .derive({ as: "global" }, ({ request }) => ({ origin: originOf(request) }))
    .onAfterHandle(
      { as: "global" },
      (context) => void remember(context.request, context.route, (context as Viewed).viewer),
    )
    .onError({ as: "global" }, (context) => void remember(context.request, context.route, (context as Viewed).viewer));

/** The app's answer to a request, with the facts it noted. */
export async function handleNotingFacts(
  app: { handle(request: Request): Promise<Response> },
  request: AppRequest,
): Promise<Facts & { response: Response }> {
  const response = await app.handle(request);
  return { response, ...request.facts };
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
