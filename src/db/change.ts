// What the change bus (ports.ts ChangeBus) carries to every link cache and custom-domain map, on every thread
// and node, and the one codec for where it must be text (PostgreSQL NOTIFY payloads). The text is the one nodes
// have always sent (docs/decisions/0054), so that nodes of two releases understand each other during a rolling
// restart.
import { addressKey, userKey } from "./address-key.ts";

export type Change =
  /** One short address (a moved address's slug is movedSlug's, address-key.ts). */
  | { kind: "link"; userSlug: string; linkSlug: string }
  /** Every address under a user slug: an account being deleted. */
  | { kind: "user"; userSlug: string }
  /** Some custom domain: the custom-domain map reloads. */
  | { kind: "domains" };

export const linkChange = (userSlug: string, linkSlug: string): Change => ({ kind: "link", userSlug, linkSlug });

/** No user slug holds "!" (links/model.ts SLUG_PATTERN), so no link's text is this. */
const DOMAINS_TEXT = "!domains";

export function encodeChange(change: Change): string {
  if (change.kind === "link") return addressKey(change.userSlug, change.linkSlug);
  if (change.kind === "user") return userKey(change.userSlug);
  return DOMAINS_TEXT;
}

/** The change `text` names; null for text no release sends (a listener then assumes it missed changes). */
export function decodeChange(text: string): Change | null {
  if (text === DOMAINS_TEXT) return { kind: "domains" };
  const slash = text.indexOf("/");
  if (slash <= 0) return null;
  const userSlug = text.slice(0, slash);
  if (slash === text.length - 1) return { kind: "user", userSlug };
  return linkChange(userSlug, text.slice(slash + 1));
}
