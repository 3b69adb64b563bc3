// What /metrics reads of trust and safety from the database at scrape time: disabled links by reason, open
// reports, and each feed's last refresh (cluster-wide: one node refreshes for all).
import { isNull, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export type SafetyState = {
  disabled: Array<{ reason: string; links: number }>;
  openReports: number;
  feeds: Array<{ source: string; entries: number; refreshedAt: Date | null; failing: boolean }>;
};

const count = () => sql<number>`count(*)`.mapWith(Number);

export async function safetyState(db: Db): Promise<SafetyState> {
  const { abuseReports, links, threatFeeds } = tablesOf(db);
  const disabled = await db
    .select({ reason: sql<string>`coalesce(${links.disabledReason}, '')`, links: count() })
    .from(links)
    .where(sql`${links.status} = 'disabled' AND ${links.deleted} = ${false}`)
    .groupBy(links.disabledReason);
  const [{ open }] = await db.select({ open: count() }).from(abuseReports).where(isNull(abuseReports.resolvedAt));
  const feeds = await db.select().from(threatFeeds);
  return {
    // Operator reasons are free text: grouped by who disabled, not why.
    disabled: disabled.map((row) => ({
      reason: row.reason.startsWith("Operator:") ? "operator" : row.reason,
      links: row.links,
    })),
    openReports: open,
    feeds: feeds.map((feed) => ({
      source: feed.source,
      entries: feed.entries,
      refreshedAt: feed.refreshedAt,
      failing: feed.error !== null,
    })),
  };
}
