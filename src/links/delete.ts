// DELETE /api/links/:id: the link goes to the deleted list, off /go, and its uploads no live link shows are removed.
import { and, eq } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { LINK_NOT_FOUND, shortAddress, type LinkDeps } from "./deps.ts";
import { releaseImages, uploadUrlsOf } from "./images/usage.ts";
import { findLiveLink } from "./queries.ts";
import { recordEvent } from "../webhooks/record-event.ts";
import { linkHostname, linkRef } from "../webhooks/link-events.ts";
import { forgetEarlierAddresses } from "./old-addresses.ts";
import type { Workspace } from "../workspaces/acting.ts";

export async function deleteLink(deps: LinkDeps, workspace: Workspace, id: number): Promise<void> {
  const { links } = tablesOf(deps.database.db);
  const existing = await findLiveLink(deps.database.db, workspace.id, { id });
  if (!existing) throw notFound(LINK_NOT_FOUND);
  const earlier = await deps.database.transaction(async (tx) => {
    const now = new Date(deps.clock.now());
    await tx
      .update(links)
      .set({ deleted: true, deletedAt: now })
      .where(and(eq(links.id, id), eq(links.workspaceId, workspace.id), eq(links.deleted, false)));
    const data = linkRef(deps.publicUrl, workspace.slug, existing, await linkHostname(tx, existing.domainId));
    await recordEvent(tx, { workspaceId: existing.workspaceId, type: "link.deleted", data, at: deps.clock.now() });
    return forgetEarlierAddresses(tx, workspace, existing, now);
  });
  for (const change of [shortAddress(workspace, existing.linkSlug), ...earlier])
    await deps.changes.announceChange(change);
  await releaseImages(deps.database.db, deps.images, uploadUrlsOf(existing));
}
