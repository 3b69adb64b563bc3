// Abuse reports: anyone may report a live link (no account), rate-limited per address; the reporter's address is
// stored truncated like views'. Operators list and resolve them (`linkprev admin reports`).
import { asc, eq, isNull } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { notFound } from "../http/errors.ts";
import { truncateIp } from "../http/client-ip.ts";
import { audit } from "./audit.ts";
import type { SafetyDeps } from "./deps.ts";
import { findLinkByAddress } from "./find-link.ts";
import type { ReportJson } from "./wire.ts";

/** Reports per client per hour (an IPv6 client by its /64): enough for a person, not for a flood. */
export const REPORTS_PER_HOUR = 5;

export type ReportInput = { address: string; reason: string; details: string };

/** The report, and where the inspect page's form returns to: the page of the address reported, on its own host. */
export async function createReport(
  deps: SafetyDeps,
  input: ReportInput,
  reporterIp: string,
): Promise<{ report: ReportJson; inspectPage: string }> {
  const { abuseReports } = tablesOf(deps.database.db);
  const link = await findLinkByAddress(deps.database.db, input.address);
  const [row] = await deps.database.db
    .insert(abuseReports)
    .values({
      linkId: link.id,
      address: `${link.userSlug}/${link.linkSlug}`,
      reason: input.reason,
      details: input.details,
      reporterAddress: truncateIp(reporterIp) || "unknown",
      createdAt: new Date(deps.clock.now()),
    })
    .returning({ id: abuseReports.id });
  const address = `${link.userSlug}/${link.linkSlug}`;
  return {
    report: { id: row!.id, address, message: "Thank you: your report was sent to the operators." },
    inspectPage: `${link.shortUrl ?? `/go/${address}`}+?reported=1`,
  };
}

/** Open reports, oldest first (`all`: resolved ones too), with the link's target and status. */
export async function listReports(db: Db, all = false) {
  const { abuseReports, links, users } = tablesOf(db);
  const rows = await db
    .select({
      id: abuseReports.id,
      address: abuseReports.address,
      reason: abuseReports.reason,
      details: abuseReports.details,
      reporterAddress: abuseReports.reporterAddress,
      createdAt: abuseReports.createdAt,
      resolvedAt: abuseReports.resolvedAt,
      resolution: abuseReports.resolution,
      targetUrl: links.targetUrl,
      status: links.status,
    })
    .from(abuseReports)
    .innerJoin(links, eq(links.id, abuseReports.linkId))
    .innerJoin(users, eq(users.id, links.userId))
    .where(all ? undefined : isNull(abuseReports.resolvedAt))
    .orderBy(asc(abuseReports.id));
  return rows;
}

export async function resolveReport(deps: SafetyDeps, id: number, resolution: string, actor: string): Promise<void> {
  const { abuseReports } = tablesOf(deps.database.db);
  const at = new Date(deps.clock.now());
  await deps.database.transaction(async (tx) => {
    const [report] = await tx
      .select({ address: abuseReports.address })
      .from(abuseReports)
      .where(eq(abuseReports.id, id));
    if (!report) throw notFound(`No report ${id}`);
    await tx.update(abuseReports).set({ resolvedAt: at, resolution }).where(eq(abuseReports.id, id));
    await audit(
      tx,
      { actor, action: "report.resolve", subject: report.address, reason: `report ${id}: ${resolution}` },
      at,
    );
  });
}
