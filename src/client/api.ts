// In the browser: islands call the JSON API through this. A non-OK answer becomes Error("<status>: <body or
// status text>") ; a 401 means the session ended, so the user is told and sent to sign in again.
import { toast } from "./toast.ts";

export const SIGN_IN_PATH = "/api/auth/google";

/** Fired by the consent dialog once the terms are accepted. */
export const CONSENTED_EVENT = "linkprev:consented";

const consentGiven = () =>
  new Promise<void>((resolve) => window.addEventListener(CONSENTED_EVENT, () => resolve(), { once: true }));

/**
 * A page opened with `?workspace={slug}` acts in that workspace, and so do its islands' API calls, whatever the
 * cookie says (another tab may have switched it): docs/workspaces.md.
 */
function inPageWorkspace(path: string): string {
  const named = new URLSearchParams(window.location.search).get("workspace");
  if (!named || !path.startsWith("/api/") || /[?&]workspace=/.test(path)) return path;
  return `${path}${path.includes("?") ? "&" : "?"}workspace=${encodeURIComponent(named)}`;
}

export async function api<T = unknown>(
  path: string,
  init: RequestInit & { json?: unknown } = {},
  afterConsent = false,
): Promise<T> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set("content-type", "application/json");
  const response = await fetch(inPageWorkspace(path), {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
    credentials: "include",
  });
  if (!response.ok) {
    const text = await response.text();
    // A write before the terms were accepted (a plan remembered across sign-in starts at once): it goes through
    // when the consent dialog, which is open in front of it, has recorded the acceptance.
    if (response.status === 403 && text.includes("Accept the terms first") && !afterConsent) {
      await consentGiven();
      return api<T>(path, init, true);
    }
    if (response.status === 401) {
      toast({ title: "Unauthorized", description: "You are logged out. Logging in again...", variant: "destructive" });
      setTimeout(() => window.location.assign(SIGN_IN_PATH), 500);
    }
    throw new Error(`${response.status}: ${text || response.statusText}`);
  }
  const type = response.headers.get("content-type") ?? "";
  return (type.includes("application/json") ? await response.json() : undefined) as T;
}

/** The server's {message} out of an api() error, for showing to people. */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message.replace(/^\d+: /, "") : String(error);
  try {
    return (JSON.parse(text) as { message?: string }).message ?? text;
  } catch {
    return text;
  }
}

/**
 * The server's own explanation of a refusal (a 4xx with a {message}: a limit, a feed, the quota, a field), with the
 * field it is about; null when it gave none (a failure on its side, the network), for a generic line instead.
 */
export function refusalOf(error: unknown): { message: string; field: string | null } | null {
  const refused = error instanceof Error ? /^4\d\d: (.*)$/s.exec(error.message) : null;
  if (!refused) return null;
  try {
    const { message, field } = JSON.parse(refused[1]!) as { message?: unknown; field?: unknown };
    return typeof message === "string" && message !== ""
      ? { message, field: typeof field === "string" ? field : null }
      : null;
  } catch {
    return null;
  }
}
