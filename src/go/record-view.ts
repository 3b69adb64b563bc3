// The view a /go answer records: pushed onto the view buffer (src/views/view-recorder.ts), with what was answered
// for the crawler fetch record. The request thread keeps no path or query: only the referrer's host and the QR
// code's scan marker.
import type { Server } from "bun";
import type { Clock } from "../clock.ts";
import { clientIp, type ProxyTrust } from "../http/client-ip.ts";
import type { GoLink } from "../link-cache/held-link.ts";
import type { ViewRecorder } from "../views/view-recorder.ts";
import { PLAIN } from "./address-version.ts";
import type { ClassifiedVisitor } from "./classify.ts";

export type ViewRecordDeps = {
  /** Stamps each view (what a platform's last fetch is). */
  clock: Clock;
  views: ViewRecorder;
  /** Whose X-Forwarded-For is believed (TRUST_PROXY, TRUSTED_PROXIES). */
  proxies: ProxyTrust;
};

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

export function createViewRecord(deps: ViewRecordDeps) {
  /**
   * Records a view (a bot's under its platform or kind) with what was answered, for the crawler fetch record:
   * `started`, when the card's answer began (0 for a 302, which takes no measurable time).
   */
  return (
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
}

export type RecordView = ReturnType<typeof createViewRecord>;
