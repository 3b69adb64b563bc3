// What /go answers for a link it has looked up (and a custom host for its own links, src/go/custom-host.ts): 410
// for a retired address, 404 for none, a disabled link's own answer (src/safety/), the link's rules when it has any
// (src/go/rule-answer.ts), else the card to a card fetcher (card-answer.ts) and a 302 to everyone else, each
// counted here and its view recorded (record-view.ts).
import type { Server } from "bun";
import { clientIp } from "../http/client-ip.ts";
import { isDatabaseDown, retryAfterHeaders } from "../http/database-down.ts";
import type { GoLink } from "../link-cache/held-link.ts";
import { RETIRED, type GoAnswer } from "../link-cache/link-cache.ts";
import { disabledAnswer } from "../safety/disabled-answer.ts";
import { PLAIN } from "./address-version.ts";
import { createCardAnswer, type CardAnswerDeps } from "./card-answer.ts";
import { PREVIEW_PLATFORMS, type ClassifiedVisitor } from "./classify.ts";
import { createViewRecord, type ViewRecordDeps } from "./record-view.ts";
import type { RuleAnswerer, RuleVisit } from "./rule-answer.ts";

/** What /go answered: plain increments here, read by the metrics only when scraped (src/metrics/metrics.ts). */
export class GoCounts {
  redirects = 0;
  notFound = 0;
  /** Addresses under a deleted account's user slug (410). */
  gone = 0;
  /** Crawler previews, by PREVIEW_PLATFORMS index. */
  readonly previews = new Float64Array(PREVIEW_PLATFORMS.length);
}

export type GoAnswerDeps = CardAnswerDeps &
  ViewRecordDeps & {
    classify: (userAgent: string) => ClassifiedVisitor;
    counts: GoCounts;
    notFoundHtml: string;
    /** The page for a link not in the cache while the database cannot be asked (503). */
    unavailableHtml: string;
    /** The page for a retired address (the user slug of a deleted account). */
    goneHtml: string;
    /** Links with rules (expiry, password, targets: src/go/rule-answer.ts); the others never reach it. */
    rules: RuleAnswerer;
  };

/** A browser prefetch or prerender is not a visit. */
function isPrefetch(headers: Headers): boolean {
  const purpose = headers.get("sec-purpose") ?? headers.get("purpose") ?? headers.get("x-moz");
  return purpose !== null && /prefetch|prerender/i.test(purpose);
}

export function createGoAnswer(deps: GoAnswerDeps) {
  const notFoundHeaders = {
    ...deps.extraHeaders,
    "Content-Type": "text/html; charset=utf-8",
    "Cache-Control": "no-store",
  };
  const counts = deps.counts;
  const recordView = createViewRecord(deps);
  const card = createCardAnswer(deps, recordView);
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
    const counted = isGet && !isPrefetch(request.headers);
    if (visitor.card) {
      counts.previews[visitor.platformIndex]!++;
      return card(request, server, link, version, userAgent, visitor, counted, shortUrl);
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
  /** The password form's answer, to the address it was shown on; a right one's cookie is scoped to `cookiePath`. */
  const submit = (
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
  return { answer, submit, notFound, unavailable };
}
