// New versions of a link's short URL, for platforms that cache a card by its address.
import { and, eq, sql } from "drizzle-orm";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { requireActive } from "./checks.ts";
import { LINK_NOT_FOUND, shortAddress, type LinkDeps } from "./deps.ts";
import { askFacebookToRescrape } from "./platforms.ts";
import { linkHostname } from "../webhooks/link-events.ts";
import { shortUrlOf } from "./url.ts";
import type { Workspace } from "../workspaces/acting.ts";

/**
 * POST /api/links/:id/versions: the next version of the short URL, `/go/{user}/{link}/{n}`. The same link under a
 * new address, for platforms with no refresh tool: they cache cards by URL (Facebook by og:url, which names it).
 */
export async function issueVersion(
  deps: LinkDeps,
  workspace: Workspace,
  linkId: number,
): Promise<{ version: number; shortUrl: string }> {
  const { links } = tablesOf(deps.database.db);
  await requireActive(deps.database.db, deps, workspace);
  // One statement: concurrent calls each get their own number.
  const [row] = await deps.database.db
    .update(links)
    .set({ version: sql`${links.version} + 1`, updatedAt: new Date(deps.clock.now()) })
    .where(and(eq(links.id, linkId), eq(links.workspaceId, workspace.id), eq(links.deleted, false)))
    .returning({ version: links.version, linkSlug: links.linkSlug, domainId: links.domainId });
  if (!row) throw notFound(LINK_NOT_FOUND);
  // Every node's cached entry holds the newest version: /go/…/{n} is 404 beyond it.
  await deps.changes.announceChange(shortAddress(workspace, row.linkSlug));
  const shortUrl = shortUrlOf(
    deps.publicUrl,
    workspace.slug,
    row.linkSlug,
    row.version,
    await linkHostname(deps.database.db, row.domainId),
  );
  askFacebookToRescrape(deps, workspace, linkId, shortUrl);
  return { version: row.version, shortUrl };
}
