// Cross-site request forgery: a state-changing request that a browser sends with our cookies must come from
// our own pages. Browsers tell us through Sec-Fetch-Site and Origin; a cookie request with neither is refused.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSiteWrite(request: Request, publicUrl: string, authenticatedByCookie: boolean): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("origin");
  if (origin) return origin !== new URL(publicUrl).origin && origin !== new URL(request.url).origin;
  return authenticatedByCookie && !fetchSite;
}
