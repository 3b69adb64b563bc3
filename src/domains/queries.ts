// Reading a user's domains; every query is scoped to the owner's id.
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Domain } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import type { DomainDeps } from "./deps.ts";
import { DOMAIN_NOT_FOUND, SERVED_STATUSES } from "./model.ts";
import { presentDomain } from "./present.ts";
import type { DomainJson } from "./wire.ts";
import type { Workspace } from "../workspaces/acting.ts";

/** Live links per domain of the workspace. */
async function linkCounts(db: Db, workspaceId: number): Promise<Map<number, number>> {
  const { links } = tablesOf(db);
  const rows = await db
    .select({ domainId: links.domainId, links: count() })
    .from(links)
    .where(and(eq(links.workspaceId, workspaceId), eq(links.deleted, false)))
    .groupBy(links.domainId);
  return new Map(rows.filter((row) => row.domainId !== null).map((row) => [row.domainId!, Number(row.links)]));
}

export async function listDomains(deps: DomainDeps, workspace: Workspace): Promise<DomainJson[]> {
  const { domains } = tablesOf(deps.database.db);
  const rows = await deps.database.db
    .select()
    .from(domains)
    .where(eq(domains.workspaceId, workspace.id))
    .orderBy(asc(domains.hostname));
  const counts = await linkCounts(deps.database.db, workspace.id);
  return rows.map((row) => presentDomain(row, deps.routing, counts.get(row.id) ?? 0));
}

/** The workspace's domain by id (a 404 for anyone else's). */
export async function findDomain(db: Db, workspace: Workspace, id: number): Promise<Domain> {
  const { domains } = tablesOf(db);
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.workspaceId, workspace.id)));
  if (!row) throw notFound(DOMAIN_NOT_FOUND);
  return row;
}

export async function getDomain(deps: DomainDeps, workspace: Workspace, id: number): Promise<DomainJson> {
  const row = await findDomain(deps.database.db, workspace, id);
  return presentDomain(row, deps.routing, (await linkCounts(deps.database.db, workspace.id)).get(row.id) ?? 0);
}

/** The workspace's domain by hostname, for a link's `domain` field. */
export async function findDomainByHostname(db: Db, workspaceId: number, hostname: string): Promise<Domain | null> {
  const { domains } = tablesOf(db);
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.hostname, hostname), eq(domains.workspaceId, workspaceId)));
  return row ?? null;
}

/** Whether `hostname` (as the URL parser writes it) is a custom domain this instance serves, whoever owns it. */
export async function isServedHostname(db: Db, hostname: string): Promise<boolean> {
  const { domains } = tablesOf(db);
  const [row] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.hostname, hostname.replace(/\.$/, "")), inArray(domains.status, SERVED_STATUSES)))
    .limit(1);
  return row !== undefined;
}
