/** The key under which a link change is announced (ports.ts ChangeBus) and a link cache keeps the link. */
export const linkChangeKey = (userSlug: string, linkSlug: string) => `${userSlug}/${linkSlug}`;

/** The key that announces a change to every link under a user slug (a deleted account's, for one). */
export const userChangeKey = (userSlug: string) => `${userSlug}/`;

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
