// GET/HEAD /go/:userSlug/:linkSlug — the hot path. Served as a raw Bun route: no session, no body parsing,
// no React. One cached lookup, one memoised classification, then a 302 or the preview page, and one push
// onto the view buffer.
import type { Server } from "bun";
import { clientIp, truncateIpMemo } from "../http/client-ip.ts";
import type { GoLink, LinkCache } from "./link-cache.ts";
import { renderPreviewPage } from "./preview-page.ts";
import type { ViewRecorder } from "./view-recorder.ts";
import { PREVIEW_PLATFORMS, type CountedVisitor } from "./classify.ts";

/** What /go answered: plain increments here, read by the metrics only when scraped (src/observability/metrics.ts). */
export class GoCounts {
  redirects = 0;
  notFound = 0;
  /** Crawler previews, by PREVIEW_PLATFORMS index. */
  readonly previews = new Float64Array(PREVIEW_PLATFORMS.length);
}

type GoDeps = {
  /** HSTS and the like, for every answer. */
  extraHeaders: Record<string, string>;
  cache: LinkCache;
  views: ViewRecorder;
  classify: (userAgent: string) => CountedVisitor;
  counts: GoCounts;
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
  const counts = deps.counts;

  type GoRequest = Request & { params: { userSlug: string; linkSlug: string } };
  const answer = (request: GoRequest, server: Server<unknown>, isGet: boolean, link: GoLink | null): Response => {
    if (!link) {
      counts.notFound++;
      return notFound();
    }

    const headers = request.headers;
    const userAgent = headers.get("user-agent") ?? "";
    const visitor = deps.classify(userAgent);

    if (isGet && !isPrefetch(headers)) {
      deps.views.record({
        linkId: link.id,
        userId: link.userId,
        isBot: visitor.isBot,
        platform: visitor.platform,
        ip: truncateIpMemo(clientIp(request, server, deps.trustProxy)) || null,
        userAgent,
        attribution: referrerHost(headers),
        at: Date.now(),
      });
    }

    if (visitor.isBot) {
      counts.previews[visitor.platformIndex]!++;
      // Encoded once per cached link: crawlers fetch the same cards again and again.
      link.previewBody ??= new TextEncoder().encode(renderPreviewPage(link, deps.publicUrl));
      return new Response(isGet ? link.previewBody : null, { status: 200, headers: previewHeaders });
    }
    counts.redirects++;
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
