// The user's most recently deleted links, as the dashboard lists them: a title, the address it had, when it was
// made and when deleted. Only those columns: reading the full link row (rules, totals, renditions) for them was about a tenth
// of a dashboard's CPU. Built once (db/prepared.ts).
import { and, desc, eq, sql } from "drizzle-orm";
import { preparedOnce } from "../db/prepared.ts";
import { tablesOf } from "../db/tables.ts";
import type { LinkDeps } from "./deps.ts";
import { shortUrlOf } from "./url.ts";
import type { Workspace } from "../workspaces/acting.ts";

export type DeletedLink = { id: number; title: string; shortUrl: string; createdAt: Date; deletedAt: Date | null };

const deletedQuery = preparedOnce((db) => {
  const { domains, links } = tablesOf(db);
  return db
    .select({
      id: links.id,
      title: links.title,
      linkSlug: links.linkSlug,
      createdAt: links.createdAt,
      deletedAt: links.deletedAt,
      domain: sql<string | null>`(SELECT ${domains.hostname} FROM ${domains} WHERE ${domains.id} = ${links.domainId})`,
    })
    .from(links)
    .where(and(eq(links.workspaceId, sql.placeholder("workspaceId")), eq(links.deleted, true)))
    .orderBy(desc(links.deletedAt), desc(links.id))
    .limit(sql.placeholder("limit"))
    .prepare();
});

export async function listDeletedLinks(deps: LinkDeps, workspace: Workspace, limit: number): Promise<DeletedLink[]> {
  const rows = await deletedQuery(deps.database.db).execute({ workspaceId: workspace.id, limit });
  return rows.map(({ id, title, linkSlug, createdAt, deletedAt, domain }) => ({
    id,
    title,
    createdAt,
    deletedAt,
    shortUrl: shortUrlOf(deps.publicUrl, workspace.slug, linkSlug, 1, domain),
  }));
}
