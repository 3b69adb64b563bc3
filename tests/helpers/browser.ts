// A tiny cookie-keeping HTTP client, like a browser tab on one site.
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  private remember(response: Response) {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = /max-age=0\b/i.test(header) || /expires=Thu, 01 Jan 1970/i.test(header);
      if (expired || value === "") this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** A same-origin request, as our own pages make them (Origin set on writes). */
  async fetch(pathOrUrl: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
    const url = pathOrUrl.startsWith("http") ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`;
    const headers = new Headers(init.headers);
    if (url.startsWith(this.baseUrl) && this.cookies.size) headers.set("cookie", this.cookieHeader());
    let body = init.body;
    if (init.json !== undefined) {
      headers.set("content-type", "application/json");
      body = JSON.stringify(init.json);
    }
    const method = (init.method ?? "GET").toUpperCase();
    if (method !== "GET" && method !== "HEAD" && !headers.has("origin")) headers.set("origin", this.baseUrl);
    const response = await fetch(url, { ...init, body, headers, redirect: "manual" });
    if (url.startsWith(this.baseUrl)) this.remember(response);
    return response;
  }

  /** Follows redirects across sites (the fake Google included), keeping our cookies. */
  async navigate(pathOrUrl: string, hops = 5): Promise<Response> {
    let response = await this.fetch(pathOrUrl);
    while (hops-- > 0 && response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get("location")!, response.url || this.baseUrl).toString();
      response = await this.fetch(location);
    }
    return response;
  }
}
