// What a link's webhook events (src/webhooks/wire.ts) say about it. Its shortUrl is the address people use: on
// the link's custom domain when it has one, else /go on the instance host; pages and QR codes show that hostname too.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { isServed, SERVED_STATUSES } from "../domains/model.ts";
import { shortUrlOf } from "../links/url.ts";

/** The hostname a link is shared at: its domain's once verified (null: the instance host, meanwhile too). */
export async function linkHostname(db: Db, domainId: number | null): Promise<string | null> {
  const { domains } = tablesOf(db);
  if (domainId === null) return null;
  const [row] = await db
    .select({ hostname: domains.hostname, status: domains.status })
    .from(domains)
    .where(eq(domains.id, domainId));
  return row && isServed(row.status) ? row.hostname : null;
}

type LinkFacts = {
  id: number;
  linkSlug: string;
  targetUrl: string;
  title: string;
  description: string;
  domainId: number | null;
};

/** LinkRef: `domain` is the hostname of the link's custom domain (null: the instance host). */
export const linkRef = (
  publicUrl: string,
  userSlug: string,
  link: { id: number; linkSlug: string },
  domain: string | null,
) => ({
  id: link.id,
  linkSlug: link.linkSlug,
  shortUrl: shortUrlOf(publicUrl, userSlug, link.linkSlug, 1, domain),
});

/** The link as link.created and link.updated show it, read within `tx` (its domain may have just changed). */
export const linkState = async (tx: Db, publicUrl: string, workspace: { slug: string }, link: LinkFacts) => ({
  ...linkRef(publicUrl, workspace.slug, link, await linkHostname(tx, link.domainId)),
  targetUrl: link.targetUrl,
  title: link.title,
  description: link.description,
});

/** The live links `ids` with what their events need: owner, status, target and custom domain once served (null: none). */
export const liveLinkFacts = (tx: Db, ids: number[]) => {
  const { domains, links, workspaces } = tablesOf(tx);
  return tx
    .select({
      id: links.id,
      linkSlug: links.linkSlug,
      workspaceId: links.workspaceId,
      userSlug: workspaces.slug,
      status: links.status,
      targetUrl: links.targetUrl,
      domain: domains.hostname,
    })
    .from(links)
    .innerJoin(workspaces, eq(workspaces.id, links.workspaceId))
    .leftJoin(domains, and(eq(domains.id, links.domainId), inArray(domains.status, SERVED_STATUSES)))
    .where(and(inArray(links.id, ids), eq(links.deleted, false)));
};
