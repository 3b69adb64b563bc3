// GET/HEAD /go/:userSlug/:linkSlug and /go/:userSlug/:linkSlug/:version — the hot path. Served as raw Bun routes:
// no session, no body parsing, no React. One cached lookup, one memoised classification, then a 302 or the
// preview page, and one push onto the view buffer. A version (docs/decisions/0007) is the same link under a new
// address, for platforms that cache cards by URL: counted into the link, its og:url naming that address.
import type { Server } from "bun";
import type { Clock } from "../clock.ts";
import { clientIp, type ProxyTrust } from "../http/client-ip.ts";
import { isDatabaseDown, retryAfterHeaders } from "../http/database-down.ts";
import type { GoLink } from "../link-cache/held-link.ts";
import { RETIRED, type GoAnswer, type LinkCache } from "../link-cache/link-cache.ts";
import { pageVariant, renderPreviewPage } from "./preview-page.ts";
import type { ViewRecorder } from "../views/view-recorder.ts";
import type { CardVariant } from "../previews/variants.ts";
import { PREVIEW_PLATFORMS, type ClassifiedVisitor } from "./classify.ts";
import type { RuleAnswerer, RuleVisit } from "./rule-answer.ts";
import { disabledAnswer } from "../safety/disabled-answer.ts";

/** What /go answered: plain increments here, read by the metrics only when scraped (src/metrics/metrics.ts). */
export class GoCounts {
  redirects = 0;
  notFound = 0;
  /** Addresses under a deleted account's user slug (410). */
  gone = 0;
  /** Crawler previews, by PREVIEW_PLATFORMS index. */
  readonly previews = new Float64Array(PREVIEW_PLATFORMS.length);
}

type GoDeps = {
  /** Stamps each view (what a platform's last fetch is). */
  clock: Clock;
  /** HSTS and the like, for every answer. */
  extraHeaders: Record<string, string>;
  cache: LinkCache;
  views: ViewRecorder;
  classify: (userAgent: string) => ClassifiedVisitor;
  counts: GoCounts;
  publicUrl: string;
  /** Whose X-Forwarded-For is believed (TRUST_PROXY, TRUSTED_PROXIES). */
  proxies: ProxyTrust;
  notFoundHtml: string;
  /** The page for a link not in the cache while the database cannot be asked (503). */
  unavailableHtml: string;
  /** The page for a retired address (the user slug of a deleted account). */
  goneHtml: string;
  /** Links with rules (expiry, password, targets: src/go/rule-answer.ts); the others never reach it. */
  rules: RuleAnswerer;
  /** Custom domains by host: /go is never served on one (src/go/custom-host.ts serves their links). */
  hosts: { readonly size: number; lookup(host: string): unknown };
  /** The inspect page of an address with `+` appended (src/safety/inspect.ts): never counted. */
  inspect: (request: Request, link: GoLink | null, address: string) => Promise<Response>;
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

/** The plain address is version 1; its crawler page names the plain address. */
const PLAIN = "1";
/** A version as written in an address: a positive whole number without leading zeros, below 10⁹. */
export const VERSION_PATTERN = /^[1-9][0-9]{0,8}$/;
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
  const notFoundHeaders = {
    ...deps.extraHeaders,
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
  };
  const counts = deps.counts;
  const notFound = () => {
    counts.notFound++;
    return new Response(deps.notFoundHtml, { status: 404, headers: notFoundHeaders });
  };
  // A crawler retries a 503 but caches a 404: a link the database cannot be asked about is not "not found".
  const unavailable = (error: unknown) => {
    if (!isDatabaseDown(error)) throw error;
    return new Response(deps.unavailableHtml, { status: 503, headers: { ...notFoundHeaders, ...retryAfterHeaders } });
  };
  // People and crawlers alike: 410 tells a crawler to drop the address, and nothing is counted for anyone.
  const gone = (isGet: boolean) => {
    counts.gone++;
    return new Response(isGet ? deps.goneHtml : null, { status: 410, headers: notFoundHeaders });
  };

  const encoder = new TextEncoder();
  type GoRequest = Request & { params: { userSlug: string; linkSlug: string } };
  type VersionedGoRequest = Request & { params: { userSlug: string; linkSlug: string; version: string } };

  /**
   * A crawler page, rendered and encoded, once for the variants that show the same page (pageVariant). Kept on the
   * cached link for the plain address and the newest version (crawlers fetch the same cards again and again); an
   * older version, rarely fetched once superseded, is rendered per fetch, so that a link's memory does not grow
   * with the versions its owner issued.
   */
  const previewBody = (
    link: GoLink,
    version: string,
    asked: CardVariant,
    shortUrl?: string,
  ): Uint8Array<ArrayBuffer> => {
    const variant = pageVariant(link, asked);
    // By variant for the plain address (no string built on the common path), by version and variant otherwise;
    // on a custom domain by the address it names.
    const key =
      shortUrl !== undefined ? `${shortUrl} ${variant}` : version === PLAIN ? variant : `${version}:${variant}`;
    const cached = link.previewBodies?.get(key);
    if (cached !== undefined) return cached;
    const number = Number(version);
    const body = encoder.encode(renderPreviewPage(link, deps.publicUrl, { version: number, variant, shortUrl }));
    if (number === 1 || number === link.version) deps.cache.keepPreview(link, key, body);
    return body;
  };

  /**
   * `version`: as in the address (checked against VERSION_PATTERN), PLAIN for the plain address. `shortUrl`: the
   * custom-domain address fetched, which the crawler page names (og:url, canonical) instead of /go/….
   */
  const answer = (
    request: Request,
    server: Server<unknown>,
    isGet: boolean,
    link: GoAnswer,
    version: string,
    shortUrl?: string,
  ): Response | Promise<Response> => {
    if (link === RETIRED) return gone(isGet);
    if (!link || (version !== PLAIN && Number(version) > link.version)) return notFound();

    const userAgent = request.headers.get("user-agent") ?? "";
    const visitor = deps.classify(userAgent);
    // Disabled (src/safety/): a neutral card (to card fetchers) or a warning page (to people and other bots), no view.
    if (link.status !== "active") return disabledAnswer(link, visitor.card, isGet, deps.extraHeaders);

    if (link.goRules !== null) {
      return deps.rules.answer(link, ruleVisit(request, server, isGet, visitor), (target) =>
        proceed(request, server, isGet, link, version, userAgent, visitor, target, shortUrl),
      );
    }
    return proceed(request, server, isGet, link, version, userAgent, visitor, null, shortUrl);
  };
  const ruleVisit = (
    request: Request,
    server: Server<unknown>,
    isGet: boolean,
    visitor: ClassifiedVisitor,
  ): RuleVisit => ({
    request,
    isGet,
    // The rules' crawlers are those that get the card: another bot (curl, a monitor) is answered as a person is.
    isBot: visitor.card,
    isPerson: !visitor.isBot,
    isPrefetch: isPrefetch(request.headers),
    address: () => clientIp(request, server, deps.proxies),
  });
  /**
   * Records the view (a bot's under its platform or kind), then the card (preview crawlers and search engines) or a
   * 302 to `target` (null: the link's own) for people and every other bot; HEAD answers the same without a body.
   */
  const proceed = (
    request: Request,
    server: Server<unknown>,
    isGet: boolean,
    link: GoLink,
    version: string,
    userAgent: string,
    visitor: ClassifiedVisitor,
    target: string | null,
    shortUrl: string | undefined,
  ): Response => {
    const headers = request.headers;
    const counted = isGet && !isPrefetch(headers);
    if (visitor.card) {
      counts.previews[visitor.platformIndex]!++;
      const started = counted ? performance.now() : 0;
      const body = previewBody(link, version, visitor.variant, shortUrl);
      if (counted) recordView(request, server, link, version, userAgent, visitor, 200, body.byteLength, started);
      // HEAD too: Bun sends a HEAD's headers alone, its Content-Length the page's, as GET would.
      return new Response(body, { status: 200, headers: previewHeaders });
    }
    if (counted) recordView(request, server, link, version, userAgent, visitor, 302, 0, 0);
    counts.redirects++;
    // Built per request, not kept on the cached link: a Headers object per link cost more in memory (and so in
    // time, at a million links) than building these few fields (docs/decisions/0038).
    return new Response(null, {
      status: 302,
      headers: { ...deps.extraHeaders, Location: target ?? link.targetUrl, "Cache-Control": "no-store" },
    });
  };
  /**
   * Records a view (a bot's under its platform or kind) with what was answered, for the crawler fetch record:
   * `started`, when the card's answer began (0 for a 302, which takes no measurable time).
   */
  const recordView = (
    request: Request,
    server: Server<unknown>,
    link: GoLink,
    version: string,
    userAgent: string,
    visitor: ClassifiedVisitor,
    status: number,
    bytes: number,
    started: number,
  ) => {
    deps.views.record({
      linkId: link.id,
      userId: link.userId,
      isBot: visitor.isBot,
      platform: visitor.platform,
      // Full: the writer checks a crawler's network with it (views/crawler-verification.ts), hashes it for the
      // daily unique visitors and stores it truncated (view-store.ts).
      address: clientIp(request, server, deps.proxies),
      userAgent,
      attribution: referrerHost(request.headers),
      // A crawler that follows a QR code's URL still only fetches the card.
      scan: !visitor.isBot && hasScanMarker(request.url),
      at: deps.clock.now(),
      version: version === PLAIN ? 1 : Number(version),
      rendition: visitor.card ? visitor.variant : null,
      status,
      bytes,
      ms: started === 0 ? 0 : performance.now() - started,
    });
  };
  /** The inspect page of `link` at `address` (its short address, version included, without the `+`). */
  const inspectLink = (request: Request, link: GoAnswer, version: string, address: string): Promise<Response> =>
    deps.inspect(request, link && link !== RETIRED && Number(version) <= link.version ? link : null, address);
  /** `/go/{user}/{link}+` (or `…/{version}+`): the inspect page of the link there. */
  const inspect = async (request: Request, userSlug: string, linkSlug: string, version: string): Promise<Response> =>
    inspectLink(
      request,
      await deps.cache.get(userSlug, linkSlug),
      version,
      `${deps.publicUrl}/go/${userSlug}/${linkSlug}${version === PLAIN ? "" : `/${version}`}`,
    );
  // A custom domain serves its own links only, at /{slug}: never anyone's /go/… address under its name.
  const onCustomHost = (request: Request) =>
    deps.hosts.size !== 0 && deps.hosts.lookup(request.headers.get("host") ?? "") !== undefined;
  // `slug@domainId` is how a custom host looks up an address moved off it (address-key.ts movedSlug), a key the
  // cache shares: /go, which serves no custom domain's addresses, never resolves it, cached or not (no slug has an @).
  const isMovedKey = (linkSlug: string) => linkSlug.includes("@");
  /** A cached link is answered at once; only a miss waits for the database. */
  const serve = (
    request: GoRequest,
    server: Server<unknown>,
    isGet: boolean,
    version: string,
  ): Response | Promise<Response> => {
    const { userSlug, linkSlug } = request.params;
    if (onCustomHost(request) || isMovedKey(linkSlug)) return notFound();
    if (linkSlug.endsWith("+")) return inspect(request, userSlug, linkSlug.slice(0, -1), PLAIN);
    const cached = deps.cache.peek(userSlug, linkSlug);
    if (cached !== undefined) return answer(request, server, isGet, cached, version);
    return deps.cache
      .load(userSlug, linkSlug)
      .then((link) => answer(request, server, isGet, link, version), unavailable);
  };
  /** Anything but a plain positive number is unknown without a lookup. */
  const serveVersion = (
    request: VersionedGoRequest,
    server: Server<unknown>,
    isGet: boolean,
  ): Response | Promise<Response> => {
    const version = request.params.version;
    if (onCustomHost(request)) return notFound();
    if (version.endsWith("+") && VERSION_PATTERN.test(version.slice(0, -1)))
      return inspect(request, request.params.userSlug, request.params.linkSlug, version.slice(0, -1));
    return VERSION_PATTERN.test(version) ? serve(request, server, isGet, version) : notFound();
  };
  /** The password form's answer, to the address it was shown on; a right one's cookie is scoped to `cookiePath`. */
  const submitLink = (
    request: Request,
    server: Server<unknown>,
    link: GoAnswer,
    version: string,
    cookiePath: string,
  ): Response | Promise<Response> => {
    if (link === RETIRED) return gone(false);
    if (!link || (version !== PLAIN && Number(version) > link.version)) return notFound();
    return deps.rules.submit(
      link,
      ruleVisit(request, server, true, deps.classify(request.headers.get("user-agent") ?? "")),
      cookiePath,
    );
  };
  const submit = async (request: GoRequest, server: Server<unknown>, version: string): Promise<Response> => {
    const { userSlug, linkSlug } = request.params;
    if (onCustomHost(request) || isMovedKey(linkSlug) || (version !== PLAIN && !VERSION_PATTERN.test(version)))
      return notFound();
    // The address asked for, not the link's own: at an earlier address (a rename) the cookie must come back there.
    const askedPath = `/go/${encodeURIComponent(userSlug)}/${encodeURIComponent(linkSlug)}`;
    return submitLink(request, server, await deps.cache.get(userSlug, linkSlug), version, askedPath);
  };
  return {
    /** For src/go/custom-host.ts: a custom domain's link, counted and answered as /go answers, its inspect page, its password form's answer. */
    answer,
    inspect: inspectLink,
    submit: submitLink,
    notFound,
    plain: {
      GET: (request: GoRequest, server: Server<unknown>) => serve(request, server, true, PLAIN),
      HEAD: (request: GoRequest, server: Server<unknown>) => serve(request, server, false, PLAIN),
      POST: (request: GoRequest, server: Server<unknown>) => submit(request, server, PLAIN),
    },
    versioned: {
      GET: (request: VersionedGoRequest, server: Server<unknown>) => serveVersion(request, server, true),
      HEAD: (request: VersionedGoRequest, server: Server<unknown>) => serveVersion(request, server, false),
      POST: (request: VersionedGoRequest, server: Server<unknown>) => submit(request, server, request.params.version),
    },
  };
}
