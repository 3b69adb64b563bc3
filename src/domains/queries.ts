// Reading a user's domains; every query is scoped to the owner's id.
import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Domain, type User } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import type { DomainDeps } from "./deps.ts";
import { DOMAIN_NOT_FOUND, SERVED_STATUSES } from "./model.ts";
import { presentDomain } from "./present.ts";
import type { DomainJson } from "./wire.ts";

/** Live links per domain of the user. */
async function linkCounts(db: Db, userId: number): Promise<Map<number, number>> {
  const { links } = tablesOf(db);
  const rows = await db
    .select({ domainId: links.domainId, links: count() })
    .from(links)
    .where(and(eq(links.userId, userId), eq(links.deleted, false)))
    .groupBy(links.domainId);
  return new Map(rows.filter((row) => row.domainId !== null).map((row) => [row.domainId!, Number(row.links)]));
}

export async function listDomains(deps: DomainDeps, user: User): Promise<DomainJson[]> {
  const { domains } = tablesOf(deps.database.db);
  const rows = await deps.database.db
    .select()
    .from(domains)
    .where(eq(domains.userId, user.id))
    .orderBy(asc(domains.hostname));
  const counts = await linkCounts(deps.database.db, user.id);
  return rows.map((row) => presentDomain(row, deps.routing, counts.get(row.id) ?? 0));
}

/** The user's domain by id (a 404 for anyone else's). */
export async function findDomain(db: Db, user: User, id: number): Promise<Domain> {
  const { domains } = tablesOf(db);
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.id, id), eq(domains.userId, user.id)));
  if (!row) throw notFound(DOMAIN_NOT_FOUND);
  return row;
}

export async function getDomain(deps: DomainDeps, user: User, id: number): Promise<DomainJson> {
  const row = await findDomain(deps.database.db, user, id);
  return presentDomain(row, deps.routing, (await linkCounts(deps.database.db, user.id)).get(row.id) ?? 0);
}

/** The user's domain by hostname, for a link's `domain` field. */
export async function findDomainByHostname(db: Db, userId: number, hostname: string): Promise<Domain | null> {
  const { domains } = tablesOf(db);
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.hostname, hostname), eq(domains.userId, userId)));
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
