/** The normalised URL when `value` is an absolute http(s) URL, else null. */
export function safeHttpUrl(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname) return null;
  return url.href;
}

/**
 * A link's short URL: the plain address for version 1, `/go/{user}/{link}/{n}` from version 2 on (a new address
 * for platforms that cache cards by URL; docs/decisions/0007). On a custom domain (src/domains/) `/{link}` there,
 * with PUBLIC_URL's scheme.
 */
export function shortUrlOf(publicUrl: string, userSlug: string, linkSlug: string, version = 1, domain: string | null = null): string {
  const plain = domain ? `${new URL(publicUrl).protocol}//${domain}/${linkSlug}` : `${publicUrl}/go/${userSlug}/${linkSlug}`;
  return version >= 2 ? `${plain}/${version}` : plain;
}
