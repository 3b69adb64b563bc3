import { z } from "zod";

/** The normalised URL when `value` is an absolute http(s) URL, else null. */
export function safeHttpUrl(value: string): string | null {
  if (!URL.canParse(value)) return null;
  const url = new URL(value);
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (!url.hostname) return null;
  return url.href;
}

/**
 * A destination as it is stored and compared (docs/decisions/0042): safeHttpUrl's form (lower case, IDN as punycode,
 * default port dropped) and the host without the trailing dots that name the same host; null if not http(s).
 */
export function canonicalHttpUrl(value: string): string | null {
  const href = safeHttpUrl(value.trim());
  if (!href) return null;
  const url = new URL(href);
  const host = url.hostname.replace(/\.+$/, "");
  if (!host) return null;
  if (host !== url.hostname) url.hostname = host;
  return url.href;
}

/**
 * A link's short URL: the plain address for version 1, `/go/{user}/{link}/{n}` from version 2 on (a new address
 * for platforms that cache cards by URL; docs/decisions/0007). On a custom domain (src/domains/) `/{link}` there,
 * with PUBLIC_URL's scheme.
 */
export function shortUrlOf(
  publicUrl: string,
  userSlug: string,
  linkSlug: string,
  version = 1,
  domain: string | null = null,
): string {
  const plain = domain
    ? `${new URL(publicUrl).protocol}//${domain}/${linkSlug}`
    : `${publicUrl}/go/${userSlug}/${linkSlug}`;
  return version >= 2 ? `${plain}/${version}` : plain;
}

/**
 * The database's limit on a stored destination (its CHECK), measured on the canonical form: percent-encoding makes
 * each non-ASCII character 6 to 9 characters long.
 */
export const CANONICAL_URL_MAX = 2048;
export const ENCODED_URL_TOO_LONG = `must be ${CANONICAL_URL_MAX} characters or less (as a URL, with its non-ASCII characters encoded)`;

/**
 * A destination field (a link's target, rule targets, expiredUrl): trimmed, http(s), and given in its canonical form,
 * refused with `tooLong` when that form is over the limit. The raw text's own limit spares parsing a huge value.
 */
export const canonicalUrlField = (invalid: string, tooLong: string) =>
  z
    .string(invalid)
    .trim()
    .max(CANONICAL_URL_MAX, tooLong)
    .transform((value, context) => {
      const url = canonicalHttpUrl(value);
      if (url !== null && url.length <= CANONICAL_URL_MAX) return url;
      context.addIssue({ code: "custom", message: url === null ? invalid : tooLong });
      return z.NEVER;
    });
