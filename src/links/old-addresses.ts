// A link's earlier addresses (docs/decisions/0047): a rename or a move to another domain keeps the old address
// answering for the link (printed QR codes, shared posts); its owner may drop one, which then answers 410 Gone
// and is never taken again. Rows of link_old_addresses; /go reads them on a cache miss (db/go-link-sql.ts).
import { and, asc, eq, isNotNull, isNull } from "drizzle-orm";
import { movedSlug } from "../db/address-key.ts";
import { linkChange, type Change } from "../db/change.ts";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Link } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import type { LinkDeps } from "./deps.ts";
import { shortUrlOf } from "./url.ts";
import type { Workspace } from "../workspaces/acting.ts";

/** The changes every link cache hears when the address `slug` (on `domainId`, null: the instance's) changes hands. */
const changesOf = (workspace: Workspace, slug: string, domainId: number | null): Change[] => [
  linkChange(workspace.slug, slug),
  ...(domainId === null ? [] : [linkChange(workspace.slug, movedSlug(slug, domainId))]),
];

const sameDomain = (db: Db, domainId: number | null) => {
  const { linkOldAddresses } = tablesOf(db);
  return domainId === null ? isNull(linkOldAddresses.domainId) : eq(linkOldAddresses.domainId, domainId);
};

/**
 * In an edit's transaction: the address `existing` leaves (its slug, or its custom domain) becomes an earlier
 * address of it, and one of its earlier addresses it takes back is its own again. The changes the caches must hear.
 */
export async function keepEarlierAddress(
  tx: Db,
  workspace: Workspace,
  existing: Link,
  slug: string,
  domainId: number | null,
): Promise<Change[]> {
  const { linkOldAddresses } = tablesOf(tx);
  const renamed = slug !== existing.linkSlug;
  // A move off the instance host keeps the slug: /go serves every link, so its /go address is unchanged.
  if (!renamed && (domainId === existing.domainId || existing.domainId === null)) return [];
  const mine = and(
    eq(linkOldAddresses.linkId, existing.id),
    eq(linkOldAddresses.linkSlug, slug),
    sameDomain(tx, domainId),
  );
  await tx.delete(linkOldAddresses).where(mine);
  const held = and(
    eq(linkOldAddresses.linkId, existing.id),
    eq(linkOldAddresses.linkSlug, existing.linkSlug),
    sameDomain(tx, existing.domainId),
  );
  if ((await tx.select({ id: linkOldAddresses.id }).from(linkOldAddresses).where(held).limit(1)).length === 0) {
    await tx.insert(linkOldAddresses).values({
      // Who made the earlier address: the link's creator (the editor is the link's updated_by_user_id).
      userId: existing.userId,
      workspaceId: existing.workspaceId,
      linkId: existing.id,
      linkSlug: existing.linkSlug,
      domainId: existing.domainId,
    });
  }
  return [...changesOf(workspace, slug, domainId), ...changesOf(workspace, existing.linkSlug, existing.domainId)];
}

/**
 * In a deletion's transaction: the link's earlier addresses are free again, as its own slug is; a disabled link's
 * are dropped instead (410, never taken again), so that no address it held comes back live. The changes to announce.
 */
export async function forgetEarlierAddresses(
  tx: Db,
  workspace: Workspace,
  link: Pick<Link, "id" | "status">,
  now: Date,
): Promise<Change[]> {
  const { linkOldAddresses } = tablesOf(tx);
  const returning = { slug: linkOldAddresses.linkSlug, domainId: linkOldAddresses.domainId };
  const held = eq(linkOldAddresses.linkId, link.id);
  const rows =
    link.status === "disabled"
      ? await tx.update(linkOldAddresses).set({ linkId: null, droppedAt: now }).where(held).returning(returning)
      : await tx.delete(linkOldAddresses).where(held).returning(returning);
  return rows.flatMap((row) => changesOf(workspace, row.slug, row.domainId));
}

/** A link's earlier addresses as the editor and the API list them, oldest first. */
export async function earlierAddresses(db: Db, publicUrl: string, workspace: Workspace, linkId: number) {
  const { domains, linkOldAddresses } = tablesOf(db);
  const rows = await db
    .select({
      id: linkOldAddresses.id,
      slug: linkOldAddresses.linkSlug,
      hostname: domains.hostname,
      createdAt: linkOldAddresses.createdAt,
    })
    .from(linkOldAddresses)
    .leftJoin(domains, eq(domains.id, linkOldAddresses.domainId))
    .where(and(eq(linkOldAddresses.workspaceId, workspace.id), eq(linkOldAddresses.linkId, linkId)))
    .orderBy(asc(linkOldAddresses.id));
  return rows.map((row) => ({
    id: row.id,
    shortUrl: shortUrlOf(publicUrl, workspace.slug, row.slug, 1, row.hostname),
    movedAt: row.createdAt,
  }));
}

export type EarlierAddress = Awaited<ReturnType<typeof earlierAddresses>>[number];

/**
 * DELETE /api/links/:id/old-addresses/:addressId: the address answers 410 Gone from now on, and stays taken. Only a
 * live link holds earlier addresses (a deletion frees them), so the row names a live link of the user's.
 */
export async function dropEarlierAddress(
  deps: LinkDeps,
  workspace: Workspace,
  linkId: number,
  addressId: number,
): Promise<void> {
  const { linkOldAddresses } = tablesOf(deps.database.db);
  const [row] = await deps.database.db
    .update(linkOldAddresses)
    .set({ linkId: null, droppedAt: new Date(deps.clock.now()) })
    .where(
      and(
        eq(linkOldAddresses.id, addressId),
        eq(linkOldAddresses.workspaceId, workspace.id),
        eq(linkOldAddresses.linkId, linkId),
        isNotNull(linkOldAddresses.linkId),
      ),
    )
    .returning({ slug: linkOldAddresses.linkSlug, domainId: linkOldAddresses.domainId });
  if (!row) throw notFound("No such earlier address of this link");
  for (const change of changesOf(workspace, row.slug, row.domainId)) await deps.changes.announceChange(change);
}
