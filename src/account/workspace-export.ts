// GET /api/workspaces/{id}/export: an owner's or admin's copy of a workspace (permission workspace.export): its links
// with their rules, its domains and webhooks (never a secret or a verification token), its members and its daily
// counts. Every query is scoped to the workspace's id.
import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Tables } from "../db/tables.ts";
import { shortUrlOf } from "../links/url.ts";
import { listMembers } from "../members/members.ts";
import type { Workspace } from "../workspaces/acting.ts";

const total = (column: Tables["viewRollups"]["human" | "bot"]) =>
  sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

export async function exportWorkspace(db: Db, publicUrl: string, workspace: Workspace, now: number) {
  const { domains, links, viewRollups, webhookEndpoints } = tablesOf(db);
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
    db
      .select({
        url: webhookEndpoints.url,
        description: webhookEndpoints.description,
        events: webhookEndpoints.events,
        enabled: webhookEndpoints.enabled,
        createdAt: webhookEndpoints.createdAt,
      })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.workspaceId, workspace.id))
      .orderBy(asc(webhookEndpoints.id)),
    listMembers(db, workspace.id),
    // Summed over PostgreSQL's per-node slots: one row per link, day and platform on both engines.
    db
      .select({
        linkId: viewRollups.linkId,
        day: viewRollups.day,
        platform: viewRollups.platform,
        human: total(viewRollups.human),
        bot: total(viewRollups.bot),
      })
      .from(viewRollups)
      .innerJoin(links, eq(links.id, viewRollups.linkId))
      .where(own)
      .groupBy(viewRollups.linkId, viewRollups.day, viewRollups.platform)
      .orderBy(viewRollups.linkId, viewRollups.day, viewRollups.platform),
  ]);
  return {
    exportedAt: new Date(now),
    workspace: { slug: workspace.slug, name: workspace.name },
    members,
    domains: domainRows,
    webhookEndpoints: endpoints.map((endpoint) => ({ ...endpoint, events: JSON.parse(endpoint.events) as string[] })),
    links: linkRows.map((row) => {
      const domain = domainRows.find((candidate) => candidate.id === row.domainId)?.hostname ?? null;
      return { ...row, domain, shortUrl: shortUrlOf(publicUrl, workspace.slug, row.linkSlug, 1, domain) };
    }),
    dailyViews,
  };
}
