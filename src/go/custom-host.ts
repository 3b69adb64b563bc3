// Requests whose Host is a custom domain (src/domains/): /{slug} serves that domain's own link (its owner's link
// placed on it, never another's), / its root URL or a small page, anything else its not-found URL or our 404.
// A pending or invalid domain is not in the host map: its host is the app's, as any unknown host. Crawler pages name the address fetched (og:url on the custom host).
// As on /go: `/{slug}+` is the link's inspect page, a POST to `/{slug}` a password form's answer (its cookie scoped
// to `/{slug}`), and the inspect page's report form posts to this host's /api/reports, which the app answers.
// Its app-link documents answer at exactly their /.well-known/ paths, byte-exact, before any slug (docs/decisions/0060).
import type { Server } from "bun";
import type { HostDomain } from "../domains/host-map.ts";
import { AASA_PATH, ASSET_LINKS_PATH } from "../domains/model.ts";
import { escapeHtml } from "../http/escape.ts";
import { movedSlug } from "../db/address-key.ts";
import { couldBeLinkSlug } from "../links/model.ts";
import { VERSION_PATTERN } from "./address-version.ts";
import type { createGoHandler } from "./go.ts";
import { RETIRED, type GoAnswer, type LinkCache } from "../link-cache/link-cache.ts";

/** The report form's target (src/safety/routes.ts): the inspect page on this host posts there. */
const REPORTS_PATH = "/api/reports";
const utf8 = new TextEncoder();

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

/** The document served at `path` on `domain`: null when the path is not one of them, undefined when none is set. */
function appLinkDocument(domain: HostDomain, path: string): string | null | undefined {
  if (path === AASA_PATH) return domain.appleAppSiteAssociation ?? undefined;
  if (path === ASSET_LINKS_PATH) return domain.assetLinks ?? undefined;
  return null;
}

/** The handler, or null when the request's host is not a custom domain (the app answers it as usual). */
export function createCustomHostRouter(deps: HostDeps) {
  const redirect = (location: string) =>
    new Response(null, {
      status: 302,
      headers: { ...deps.extraHeaders, Location: location, "Cache-Control": "no-store" },
    });
  const missing = (domain: HostDomain) => (domain.notFoundUrl ? redirect(domain.notFoundUrl) : deps.go.notFound());
  return (request: Request, server: Server<unknown>): Response | Promise<Response> | null => {
    if (deps.hosts.size === 0) return null;
    const domain = deps.hosts.lookup(request.headers.get("host") ?? "");
    if (domain === undefined) return null;
    const method = request.method;
    const isGet = method === "GET";
    const path = new URL(request.url).pathname;
    if (method === "POST" && path === REPORTS_PATH) return null;
    if (!isGet && method !== "HEAD" && (method !== "POST" || path === "/"))
      return new Response(null, {
        status: 405,
        headers: { ...deps.extraHeaders, Allow: path === "/" ? "GET, HEAD" : "GET, HEAD, POST" },
      });
    if (path.startsWith("/.well-known/")) {
      // Apple's and Google's fetchers follow no redirect: the document itself, or a plain 404 (never notFoundUrl).
      const document = appLinkDocument(domain, path);
      if (document === null) return missing(domain);
      if (method === "POST")
        return new Response(null, { status: 405, headers: { ...deps.extraHeaders, Allow: "GET, HEAD" } });
      if (document === undefined) return deps.go.notFound();
      return new Response(isGet ? document : null, {
        headers: {
          ...deps.extraHeaders,
          "Content-Type": "application/json",
          "Cache-Control": "public, max-age=300",
          // HEAD: the length the GET would send.
          ...(!isGet && { "Content-Length": String(utf8.encode(document).byteLength) }),
        },
      });
    }
    if (path === "/") {
      if (domain.rootUrl) return redirect(domain.rootUrl);
      return new Response(isGet ? rootPage(domain.hostname) : null, {
        headers: { ...deps.extraHeaders, "Content-Type": "text/html; charset=utf-8" },
      });
    }
    // /{slug}, or /{slug}/{version} (docs/decisions/0007) as /go has them, either with `+` (GET or HEAD only).
    const inspecting = method !== "POST" && path.endsWith("+");
    const address = inspecting ? path.slice(0, -1) : path;
    const [slug = "", version = "1", extra] = address.slice(1).split("/");
    if (extra !== undefined || !couldBeLinkSlug(slug) || !VERSION_PATTERN.test(version)) return missing(domain);
    const shortUrl = `${deps.scheme}//${domain.hostname}${address}`;
    // Only the domain's own link: the owner's link under this slug, and placed on this domain.
    const respond = (link: GoAnswer) => {
      if (link === RETIRED) return deps.go.answer(request, server, isGet, link, version); // a dropped earlier address: 410
      if (!link || link.domainId !== domain.id) return missing(domain);
      if (inspecting) return deps.go.inspect(request, link, version, shortUrl);
      if (method === "POST") return deps.go.submit(request, server, link, version, `/${slug}`);
      return deps.go.answer(request, server, isGet, link, version, shortUrl);
    };
    const cached = deps.cache.peek(domain.userSlug, slug);
    // The common case: this domain's own link, held.
    if (cached && cached !== RETIRED && cached.domainId === domain.id) return respond(cached);
    // Else maybe a link moved off this domain, at its earlier address here (docs/decisions/0047): unknown to the
    // address filter unless one was, so no read.
    const orMoved = (link: GoAnswer) => {
      if (link && link !== RETIRED && link.domainId === domain.id) return respond(link);
      const moved = movedSlug(slug, domain.id);
      const earlier = deps.cache.peek(domain.userSlug, moved);
      const found = (answer: GoAnswer) => respond(answer ?? link);
      return earlier !== undefined ? found(earlier) : deps.cache.load(domain.userSlug, moved).then(found);
    };
    return cached !== undefined ? orMoved(cached) : deps.cache.load(domain.userSlug, slug).then(orMoved);
  };
}
