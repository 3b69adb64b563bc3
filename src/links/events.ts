// What a link's webhook events (src/webhooks/wire.ts) say about it.
import type { User } from "../db/tables.ts";
import type { LinkDeps } from "./deps.ts";
import { shortUrlOf } from "./url.ts";

type LinkFacts = { id: number; linkSlug: string; targetUrl: string; title: string; description: string };

export const linkRef = (deps: LinkDeps, user: User, link: { id: number; linkSlug: string }) => ({
  id: link.id,
  linkSlug: link.linkSlug,
  shortUrl: shortUrlOf(deps.publicUrl, user.userSlug, link.linkSlug),
});

export const linkState = (deps: LinkDeps, user: User, link: LinkFacts) => ({
  ...linkRef(deps, user, link),
  targetUrl: link.targetUrl,
  title: link.title,
  description: link.description,
});
