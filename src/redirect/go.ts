// GET/HEAD /go/:userSlug/:linkSlug — the hot path. Served as a raw Bun route: no session, no body parsing,
// no React. One cached lookup, one memoised classification, then a 302 or the preview page, and one push
// onto the view buffer.
import type { Server } from "bun";
import { clientIp } from "../http/client-ip.ts";
import type { GoLink, LinkCache } from "./link-cache.ts";
import { renderPreviewPage } from "./preview-page.ts";
import type { ViewRecorder } from "./view-recorder.ts";
import type { Visitor } from "./classify.ts";

type GoDeps = {
  /** HSTS and the like, for every answer. */
  extraHeaders: Record<string, string>;
  cache: LinkCache;
  views: ViewRecorder;
  classify: (userAgent: string) => Visitor;
  publicUrl: string;
  trustProxy: boolean;
  notFoundHtml: string;
};

// Previews are rendered per request into no cache of anyone's: every fetch must reach us to be counted.
const PREVIEW_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "Cache-Control": "no-store",
  "X-Robots-Tag": "noindex",
  "X-Content-Type-Options": "nosniff",
  "Content-Security-Policy": "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; frame-ancestors 'none'",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "X-Frame-Options": "DENY",
};

/** A browser prefetch or prerender is not a visit. */
function isPrefetch(headers: Headers): boolean {
  const purpose = headers.get("sec-purpose") ?? headers.get("purpose") ?? headers.get("x-moz");
  return purpose !== null && /prefetch|prerender/i.test(purpose);
}

/** The QR code's scan marker (`?qr=1`, see src/links/qr.ts): a query string is rare, so most requests stop at the `?` test. */
function hasScanMarker(url: string): boolean {
  const query = url.indexOf("?");
  return query !== -1 && new URLSearchParams(url.slice(query + 1)).get("qr") === "1";
}

function referrerHost(headers: Headers): string | null {
  const referer = headers.get("referer");
  if (!referer || !URL.canParse(referer)) return null;
  return new URL(referer).hostname || null;
}

export function createGoHandler(deps: GoDeps) {
  // Headers instances are copied natively; object literals are converted key by key on every response.
  const previewHeaders = new Headers({ ...PREVIEW_HEADERS, ...deps.extraHeaders });
  const notFoundHeaders = { ...deps.extraHeaders, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" };
  const notFound = () => new Response(deps.notFoundHtml, { status: 404, headers: notFoundHeaders });

  type GoRequest = Request & { params: { userSlug: string; linkSlug: string } };
  const answer = (request: GoRequest, server: Server<unknown>, isGet: boolean, link: GoLink | null): Response => {
    if (!link) return notFound();

    const headers = request.headers;
    const userAgent = headers.get("user-agent") ?? "";
    const visitor = deps.classify(userAgent);

    if (isGet && !isPrefetch(headers)) {
      deps.views.record({
        linkId: link.id,
        userId: link.userId,
        isBot: visitor.isBot,
        platform: visitor.platform,
        // Full: the writer hashes it for the daily unique visitors and stores it truncated (view-store.ts).
        address: clientIp(request, server, deps.trustProxy),
        userAgent,
        attribution: referrerHost(headers),
        // A crawler that follows a QR code's URL still only fetches the card.
        scan: !visitor.isBot && hasScanMarker(request.url),
        at: Date.now(),
      });
    }

    if (visitor.isBot) {
      // Encoded once per cached link: crawlers fetch the same cards again and again.
      link.previewBody ??= new TextEncoder().encode(renderPreviewPage(link, deps.publicUrl));
      return new Response(isGet ? link.previewBody : null, { status: 200, headers: previewHeaders });
    }
    link.redirectHeaders ??= new Headers({ ...deps.extraHeaders, Location: link.targetUrl, "Cache-Control": "no-store" });
    return new Response(null, { status: 302, headers: link.redirectHeaders });
  };
  /** A cached link is answered at once; only a miss waits for the database. */
  const serve = (request: GoRequest, server: Server<unknown>, isGet: boolean): Response | Promise<Response> => {
    const { userSlug, linkSlug } = request.params;
    const cached = deps.cache.peek(userSlug, linkSlug);
    if (cached !== undefined) return answer(request, server, isGet, cached);
    return deps.cache.load(userSlug, linkSlug).then((link) => answer(request, server, isGet, link));
  };
  return {
    GET: (request: GoRequest, server: Server<unknown>) => serve(request, server, true),
    HEAD: (request: GoRequest, server: Server<unknown>) => serve(request, server, false),
  };
}
