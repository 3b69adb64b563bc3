// The client's HTTP calls, all through the SDK (packages/sdk), and errors that map to exit codes
// (1 refused by the server, 2 bad usage, 3 server unreachable).
import { createClient, LinkPrevError, type LinkPrevClient } from "../../packages/sdk/src/index.ts";
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

/**
 * Runs `calls` with the SDK's client for these settings (packages/sdk: the types generated from the server's OpenAPI
 * document), turning its refusals and an unreachable server into CliErrors.
 */
export async function api<T>(
  settings: Partial<ClientSettings>,
  calls: (client: LinkPrevClient) => Promise<T>,
): Promise<T> {
  const { server, token } = loggedIn(settings);
  const client = createClient({
    baseUrl: server,
    token,
    fetch: (request) =>
      fetch(inWorkspace(request, settings.workspace)).catch((error: unknown) =>
        Promise.reject(unreachable(server, error)),
      ),
  });
  try {
    return await calls(client);
  } catch (error) {
    if (error instanceof LinkPrevError) throw refused(server, error.status, error.message);
    throw error;
  }
}

/** The request naming the workspace to act in (the server's ?workspace=, docs/workspaces.md), when one is chosen. */
function inWorkspace(request: Request, workspace: string | undefined): Request {
  if (!workspace) return request;
  const url = new URL(request.url);
  url.searchParams.set("workspace", workspace);
  return new Request(url, request);
}

/**
 * A FormData as the body of a route the document also takes as multipart/form-data, with the same fields as its JSON
 * (openapi-fetch sends a FormData as it is).
 */
export const multipart = <Body>(form: FormData): Body => form as unknown as Body;

function loggedIn(settings: Partial<ClientSettings>): ClientSettings {
  if (!settings.server || !settings.token)
    throw usageError(
      "Not logged in. Run `linkprev login --server URL --token TOKEN` (or set LINKPREV_SERVER and LINKPREV_TOKEN).",
    );
  return { server: settings.server, token: settings.token };
}

function unreachable(server: string, error: unknown): CliError {
  const reason = error instanceof Error ? error.message : String(error);
  return new CliError(
    `Cannot reach the LinkPrev server at ${server} (${reason}). Check that the server is running (linkprev serve prints the address it listens on) and that this URL is right: it comes from ${serverSource()}.`,
    3,
  );
}

/** The server's refusal, in the CLI's words. */
function refused(server: string, status: number, message: string): CliError {
  // A request with a token is refused with 401 only for the token itself: the server's "not signed in" is about
  // browsers; here the token, not the person, is what to replace.
  if (status === 401) {
    return new CliError(
      `${server} refused the API token (HTTP 401): it was revoked, or it belongs to a deleted account, or it is not one of this server's. Create a new one (dashboard, API tokens; or linkprev admin token create) and run linkprev login --token TOKEN; the one in use comes from ${tokenSource()}.`,
      1,
      401,
    );
  }
  // The server's words name the browser and the API; at a terminal, the command is the way.
  const hint =
    status === 403 && message.startsWith("Accept the terms first")
      ? "\nFrom the CLI: linkprev account accept-terms --yes"
      : "";
  return new CliError(`${message} (HTTP ${status})${hint}`, 1, status);
}
