// The client's HTTP calls: bearer token, JSON or multipart, and errors that map to exit codes
// (1 refused by the server, 2 bad usage, 3 server unreachable).
import { serverSource, tokenSource, type ClientSettings } from "./settings.ts";

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 | 3,
    /** The server's HTTP status, when it refused. */
    readonly status?: number,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, 2);

type CallInit = { method?: string; json?: unknown; form?: FormData };

/** The API's JSON answer (undefined for none). */
export async function call<T>(settings: Partial<ClientSettings>, path: string, init: CallInit = {}): Promise<T> {
  const text = await (await send(settings, path, init, "application/json")).text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * A paged list: follows the answers' `Link: <…>; rel="next"` headers from `path` until `max` items (all when
 * undefined) or the last page.
 */
export async function callPages<T>(settings: Partial<ClientSettings>, path: string, max?: number): Promise<T[]> {
  const items: T[] = [];
  let next: string | null = path;
  while (next && (max === undefined || items.length < max)) {
    const response = await send(settings, next, {}, "application/json");
    items.push(...((await response.json()) as T[]));
    const url = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get("link") ?? "")?.[1];
    // Only the path and query: the server names itself by PUBLIC_URL, the client by the address it was given.
    next = url ? new URL(url).pathname + new URL(url).search : null;
  }
  return max === undefined ? items : items.slice(0, max);
}

/** The answer's body as text (a CSV download). */
export async function callForText(
  settings: Partial<ClientSettings>,
  path: string,
  init: CallInit = {},
): Promise<string> {
  return (await send(settings, path, init, "*/*")).text();
}

/** The API's answer as bytes (an image). */
export async function callForBytes(settings: Partial<ClientSettings>, path: string): Promise<Uint8Array> {
  return new Uint8Array(await (await send(settings, path, {}, "*/*")).arrayBuffer());
}

/** Sends the request; a refusal, or no answer at all, is a CliError. */
async function send(
  settings: Partial<ClientSettings>,
  path: string,
  init: CallInit,
  accept: string,
): Promise<Response> {
  if (!settings.server || !settings.token)
    throw usageError(
      "Not logged in. Run `linkprev login --server URL --token TOKEN` (or set LINKPREV_SERVER and LINKPREV_TOKEN).",
    );
  const headers: Record<string, string> = { authorization: `Bearer ${settings.token}`, accept };
  let body: BodyInit | undefined;
  if (init.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(init.json);
  } else if (init.form) body = init.form;
  let response: Response;
  try {
    response = await fetch(`${settings.server.replace(/\/+$/, "")}${path}`, {
      method: init.method ?? "GET",
      headers,
      body,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new CliError(
      `Cannot reach the LinkPrev server at ${settings.server} (${reason}). Check that the server is running (linkprev serve prints the address it listens on) and that this URL is right: it comes from ${serverSource()}.`,
      3,
    );
  }
  if (!response.ok) {
    const text = await response.text();
    let message = text || response.statusText;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // not JSON: keep the text
    }
    // A request with a token is refused with 401 only for the token itself: the server's "not signed in" is about
    // browsers; here the token, not the person, is what to replace.
    if (response.status === 401) {
      throw new CliError(
        `${settings.server} refused the API token (HTTP 401): it was revoked, or it belongs to a deleted account, or it is not one of this server's. Create a new one (dashboard, API tokens; or linkprev admin token create) and run linkprev login --token TOKEN; the one in use comes from ${tokenSource()}.`,
        1,
        401,
      );
    }
    // The server's words name the browser and the API; at a terminal, the command is the way.
    const hint =
      response.status === 403 && message.startsWith("Accept the terms first")
        ? "\nFrom the CLI: linkprev account accept-terms --yes"
        : "";
    throw new CliError(`${message} (HTTP ${response.status})${hint}`, 1, response.status);
  }
  return response;
}
