// What the account's export (export.ts) and a workspace's (workspace-export.ts) both hold, read the same way: the
// webhook endpoints and the daily counts. Each caller passes the condition that scopes the rows to its owner.
import { asc, eq, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf, type Tables } from "../db/tables.ts";

const total = (column: Tables["viewRollups"]["human" | "bot"]) =>
  sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);

/** The endpoints `owned` selects, as the API shows them: never their secrets. */
export async function exportedEndpoints(db: Db, owned: SQL) {
  const { webhookEndpoints } = tablesOf(db);
  const rows = await db
    .select({
      url: webhookEndpoints.url,
      description: webhookEndpoints.description,
      events: webhookEndpoints.events,
      enabled: webhookEndpoints.enabled,
      createdAt: webhookEndpoints.createdAt,
    })
    .from(webhookEndpoints)
    .where(owned)
    .orderBy(asc(webhookEndpoints.id));
  return rows.map((endpoint) => ({ ...endpoint, events: JSON.parse(endpoint.events) as string[] }));
}

/** The views of the links `ownLinks` selects, summed over PostgreSQL's per-node slots: one row per link, day and
 * platform on both engines. */
export async function exportedDailyViews(db: Db, ownLinks: SQL) {
  const { links, viewRollups } = tablesOf(db);
  return db
    .select({
      linkId: viewRollups.linkId,
      day: viewRollups.day,
      platform: viewRollups.platform,
      human: total(viewRollups.human),
      bot: total(viewRollups.bot),
    })
    .from(viewRollups)
    .innerJoin(links, eq(links.id, viewRollups.linkId))
    .where(ownLinks)
    .groupBy(viewRollups.linkId, viewRollups.day, viewRollups.platform)
    .orderBy(viewRollups.linkId, viewRollups.day, viewRollups.platform);
}
