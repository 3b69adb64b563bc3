// Cross-site request forgery: a state-changing request that a browser sends with our cookies must come from
// our own pages. Browsers tell us through Sec-Fetch-Site and Origin; a cookie request with neither is refused.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The request's own origin as the browser sees it behind the TLS proxy (a custom domain's host, PUBLIC_URL's scheme). */
const behindProxy = (request: Request, publicUrl: string) =>
  `${new URL(publicUrl).protocol}//${new URL(request.url).host}`;

/**
 * `Origin: null` is ours only when Sec-Fetch-Site, which no page can set, says same-origin (or none: the user's own
 * action): a page served with `Referrer-Policy: no-referrer` posts its forms so. An opaque origin elsewhere (a
 * sandboxed frame, a data: URL) also sends "null", but as cross-site; and without Sec-Fetch-Site (older browsers)
 * "null" proves nothing and is refused (docs/decisions/0046).
 */
export function isCrossSiteWrite(request: Request, publicUrl: string, authenticatedByCookie: boolean): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin === "null" && fetchSite) return false;
  if (origin)
    return (
      origin !== new URL(publicUrl).origin &&
      origin !== new URL(request.url).origin &&
      origin !== behindProxy(request, publicUrl)
    );
  return authenticatedByCookie && !fetchSite;
}

/**
 * A navigation the browser says started on our own pages or from the user (address bar, bookmark): Sec-Fetch-Site
 * same-origin or none. Without the header (non-browser clients, older browsers) there is nothing to go by and it
 * counts as ours. Same-site (a sibling subdomain, which may be someone else's) is not ours.
 */
export function isOwnNavigation(request: Request): boolean {
  const fetchSite = request.headers.get("sec-fetch-site");
  return fetchSite === null || fetchSite === "same-origin" || fetchSite === "none";
}
