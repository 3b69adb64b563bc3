// @linkprev/sdk: a typed client for the LinkPrev API (docs/sdk.md, docs/decisions/0061). Its types (api.ts) are
// generated from the OpenAPI document the server serves; the calls are openapi-fetch's, so a path, a parameter or a
// body the document does not have is a compile error. A refusal is thrown as a LinkPrevError with the server's words.
import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import type { components, operations, paths } from "./api.ts";

export type { components, operations, paths };
/** The API's named shapes: `Schemas["Link"]`, `Schemas["WebhookEndpoint"]`, … */
export type Schemas = components["schemas"];
export type LinkPrevClient = Client<paths>;

/** A refusal: the server's message (`{"message": …}`), its HTTP status, and the input field when one is at fault. */
export class LinkPrevError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly field?: string,
  ) {
    super(message);
    this.name = "LinkPrevError";
  }
}

export type LinkPrevOptions = {
  /** The server, e.g. https://links.example.com */
  baseUrl: string;
  /** An API token (lp_…): dashboard → API tokens, `linkprev admin token create`, or POST /api/tokens. */
  token: string;
  /** A fetch of your own (tests, proxies); the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
};

/** Turns every answer that is not 2xx (or a redirect) into a thrown LinkPrevError. */
const throwRefusals: Middleware = {
  async onResponse({ response }) {
    if (response.ok || (response.status >= 300 && response.status < 400)) return undefined;
    const text = await response.clone().text();
    let message = text || response.statusText;
    let field: string | undefined;
    try {
      const body = JSON.parse(text) as { message?: unknown; field?: unknown };
      if (typeof body.message === "string") message = body.message;
      if (typeof body.field === "string") field = body.field;
    } catch {
      // not JSON: the text itself
    }
    throw new LinkPrevError(message, response.status, field);
  },
};

/**
 * A client for one server and token: `client.GET("/api/links")`, `client.POST("/api/links", { body })`, with
 * `params: { path, query }` as the document declares them. Each call resolves to `{ data, response }`; a refusal
 * rejects with a LinkPrevError.
 */
export function createClient({ baseUrl, token, fetch }: LinkPrevOptions): LinkPrevClient {
  const client = createFetchClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ""),
    headers: { authorization: `Bearer ${token}` },
    ...(fetch ? { fetch } : {}),
  });
  client.use(throwRefusals);
  return client;
}

/** The answer's body of a call that succeeded (a refusal has already thrown): `await ok(client.GET(…))`. */
export async function ok<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  return (await call).data as T;
}

/** The address of the next page a paged list's answer names (`Link: <…>; rel="next"`), or null on the last. */
export function nextPage(response: Response): URL | null {
  const url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
  return url ? new URL(url) : null;
}
