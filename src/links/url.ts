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
 * for platforms that cache cards by URL; docs/decisions/0007).
 */
export function shortUrlOf(publicUrl: string, userSlug: string, linkSlug: string, version = 1): string {
  const plain = `${publicUrl}/go/${userSlug}/${linkSlug}`;
  return version >= 2 ? `${plain}/${version}` : plain;
}
