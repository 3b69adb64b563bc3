/** The key a link cache and its address filter keep the short address `userSlug/linkSlug` under (go-link-sql.ts). */
export const addressKey = (userSlug: string, linkSlug: string) => `${userSlug}/${linkSlug}`;

/** The key that stands for every address under a user slug: a retired slug's, in the address filter. */
export const userKey = (userSlug: string) => `${userSlug}/`;

/**
 * How a custom domain's earlier address, `linkSlug` on the domain `domainId` that a link was moved off, is looked up
 * and announced in place of a link slug (docs/decisions/0047): `@` is in no slug, so it names no /go address.
 */
export const movedSlug = (linkSlug: string, domainId: number) => `${linkSlug}@${domainId}`;

/** The slug and domain a link slug names: a moved address's (movedSlug), or the plain slug (domain null). */
export function oldAddressOf(linkSlug: string): { slug: string; domainId: number | null } {
  const at = linkSlug.indexOf("@");
  if (at === -1) return { slug: linkSlug, domainId: null };
  const domainId = Number(linkSlug.slice(at + 1));
  return { slug: linkSlug.slice(0, at), domainId: Number.isSafeInteger(domainId) && domainId > 0 ? domainId : 0 };
}
