// Requests whose Host is a custom domain (src/domains/): /{slug} serves that domain's own link (its owner's link
// placed on it, never another's), / its root URL or a small page, anything else its not-found URL or our 404.
// A pending or invalid domain serves nothing. Crawler pages name the address fetched (og:url on the custom host).
import type { Server } from "bun";
import type { HostDomain } from "../domains/host-map.ts";
import { escapeHtml } from "../http/escape.ts";
import { couldBeLinkSlug } from "../links/model.ts";
import { VERSION_PATTERN, type createGoHandler } from "./go.ts";
import { RETIRED, type GoAnswer, type LinkCache } from "./link-cache.ts";

type HostDeps = {
  hosts: { readonly size: number; lookup(host: string): HostDomain | undefined };
  cache: LinkCache;
  go: ReturnType<typeof createGoHandler>;
  /** PUBLIC_URL's scheme ("https:"): custom-domain addresses use it too. */
  scheme: string;
  extraHeaders: Record<string, string>;
};

function rootPage(hostname: string): string {
  const name = escapeHtml(hostname);
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><title>${name}</title></head><body><main><h1>${name}</h1><p>Short links served by LinkPrev.</p></main></body></html>`;
}

/** The handler, or null when the request's host is not a custom domain (the app answers it as usual). */
export function createCustomHostRouter(deps: HostDeps) {
  const redirect = (location: string) => new Response(null, { status: 302, headers: { ...deps.extraHeaders, Location: location, "Cache-Control": "no-store" } });
  const missing = (domain: HostDomain) => (domain.notFoundUrl ? redirect(domain.notFoundUrl) : deps.go.notFound());
  return (request: Request, server: Server<unknown>): Response | Promise<Response> | null => {
    if (deps.hosts.size === 0) return null;
    const domain = deps.hosts.lookup(request.headers.get("host") ?? "");
    if (domain === undefined) return null;
    if (!domain.served) return deps.go.notFound();
    const isGet = request.method === "GET";
    if (!isGet && request.method !== "HEAD") return new Response(null, { status: 405, headers: { ...deps.extraHeaders, Allow: "GET, HEAD" } });
    const path = new URL(request.url).pathname;
    if (path === "/") {
      if (domain.rootUrl) return redirect(domain.rootUrl);
      return new Response(isGet ? rootPage(domain.hostname) : null, { headers: { ...deps.extraHeaders, "Content-Type": "text/html; charset=utf-8" } });
    }
    // /{slug}, or /{slug}/{version} (docs/decisions/0007) as /go has them.
    const [slug = "", version = "1", extra] = path.slice(1).split("/");
    if (extra !== undefined || !couldBeLinkSlug(slug) || !VERSION_PATTERN.test(version)) return missing(domain);
    const shortUrl = `${deps.scheme}//${domain.hostname}${path}`;
    // Only the domain's own link: the owner's link under this slug, and placed on this domain.
    const respond = (link: GoAnswer) =>
      link && link !== RETIRED && link.domainId === domain.id
        ? deps.go.answer(request, server, isGet, link, version, shortUrl)
        : missing(domain);
    const cached = deps.cache.peek(domain.userSlug, slug);
    return cached !== undefined ? respond(cached) : deps.cache.load(domain.userSlug, slug).then(respond);
  };
}
