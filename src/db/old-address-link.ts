// How both engines answer an address no live link holds but an earlier address may (docs/decisions/0047).
import { RETIRED } from "./go-link-sql.ts";
import { oldAddressOf } from "./address-key.ts";
import type { GoLinkRow } from "./ports.ts";

/**
 * What an address no live link holds names as an earlier address: the link (its domain the one the address was
 * on, so that a custom domain serves it there), RETIRED once dropped (410), null when it is none or the link is
 * deleted. `find`: OLD_ADDRESS_SQL; `byId`: the live link of that id.
 */
export async function oldAddressLink(
  find: (
    userSlug: string,
    slug: string,
    domainId: number | null,
  ) => Promise<{ linkId: number | null; domainId: number | null } | undefined>,
  byId: (id: number) => Promise<GoLinkRow | undefined>,
  userSlug: string,
  linkSlug: string,
): Promise<GoLinkRow | typeof RETIRED | null> {
  const { slug, domainId } = oldAddressOf(linkSlug);
  const old = await find(userSlug, slug, domainId);
  if (!old) return null;
  if (old.linkId === null) return RETIRED;
  const link = await byId(old.linkId);
  return link ? { ...link, domainId: old.domainId } : null;
}
