// The card a preview crawler or search engine gets from /go: the link's preview page (preview-page.ts) in the
// rendition its platform shows, rendered once per distinct card and kept on the cached link, and the view recorded
// with how long the answer took and how many bytes it sent.
import type { Server } from "bun";
import type { GoLink } from "../link-cache/held-link.ts";
import type { LinkCache } from "../link-cache/link-cache.ts";
import type { CardVariant } from "../previews/variants.ts";
import { PLAIN } from "./address-version.ts";
import type { ClassifiedVisitor } from "./classify.ts";
import { pageVariant, renderPreviewPage } from "./preview-page.ts";
import type { RecordView } from "./record-view.ts";

export type CardAnswerDeps = {
  /** HSTS and the like, for every answer. */
  extraHeaders: Record<string, string>;
  cache: LinkCache;
  publicUrl: string;
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

export function createCardAnswer(deps: CardAnswerDeps, recordView: RecordView) {
  // Headers instances are copied natively; object literals are converted key by key on every response.
  const previewHeaders = new Headers({ ...PREVIEW_HEADERS, ...deps.extraHeaders });
  const encoder = new TextEncoder();

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

  /** The card for `visitor`, its view recorded when `counted` (a GET that is no prefetch). */
  return (
    request: Request,
    server: Server<unknown>,
    link: GoLink,
    version: string,
    userAgent: string,
    visitor: ClassifiedVisitor,
    counted: boolean,
    shortUrl: string | undefined,
  ): Response => {
    const started = counted ? performance.now() : 0;
    const body = previewBody(link, version, visitor.variant, shortUrl);
    if (counted) recordView(request, server, link, version, userAgent, visitor, 200, body.byteLength, started);
    // HEAD too: Bun sends a HEAD's headers alone, its Content-Length the page's, as GET would.
    return new Response(body, { status: 200, headers: previewHeaders });
  };
}
