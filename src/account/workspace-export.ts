// GET /api/workspaces/{id}/export: an owner's or admin's copy of a workspace (permission workspace.export): its links
// with their rules, its domains and webhooks (never a secret or a verification token), its members and its daily
// counts. Every query is scoped to the workspace's id.
import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { shortUrlOf } from "../links/url.ts";
import { listMembers } from "../members/members.ts";
import type { Workspace } from "../workspaces/acting.ts";
import { exportedDailyViews, exportedEndpoints } from "./export-parts.ts";

export async function exportWorkspace(db: Db, publicUrl: string, workspace: Workspace, now: number) {
  const { domains, links, webhookEndpoints } = tablesOf(db);
  const own = eq(links.workspaceId, workspace.id);
  const [linkRows, domainRows, endpoints, members, dailyViews] = await Promise.all([
    db.select().from(links).where(own).orderBy(asc(links.id)),
    db
      .select({
        id: domains.id,
        hostname: domains.hostname,
        status: domains.status,
        rootUrl: domains.rootUrl,
        notFoundUrl: domains.notFoundUrl,
        createdAt: domains.createdAt,
      })
      .from(domains)
      .where(eq(domains.workspaceId, workspace.id))
      .orderBy(asc(domains.id)),
    exportedEndpoints(db, eq(webhookEndpoints.workspaceId, workspace.id)),
    listMembers(db, workspace.id),
    exportedDailyViews(db, own),
  ]);
  return {
    exportedAt: new Date(now),
    workspace: { slug: workspace.slug, name: workspace.name },
    members,
    domains: domainRows,
    webhookEndpoints: endpoints,
    links: linkRows.map((row) => {
      const domain = domainRows.find((candidate) => candidate.id === row.domainId)?.hostname ?? null;
      return { ...row, domain, shortUrl: shortUrlOf(publicUrl, workspace.slug, row.linkSlug, 1, domain) };
    }),
    dailyViews,
  };
}
