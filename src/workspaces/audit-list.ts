// Reading the audit log (docs/decisions/0068): a workspace's rows, newest first, a page at a time or all as CSV.
import { and, desc, eq, lt } from "drizzle-orm";
import { csvRow } from "../http/csv.ts";
import { idPage } from "../http/wire.ts";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import type { Workspace } from "./acting.ts";
import type { AuditEventJson, AuditPageJson } from "./audit-wire.ts";

async function auditRows(db: Db, workspace: Workspace, limit: number, cursor: string | undefined) {
  const { auditEvents, users } = tablesOf(db);
  return db
    .select({
      id: auditEvents.id,
      at: auditEvents.createdAt,
      userId: auditEvents.userId,
      email: users.email,
      tokenId: auditEvents.tokenId,
      action: auditEvents.action,
      targetKind: auditEvents.targetKind,
      targetId: auditEvents.targetId,
      fields: auditEvents.fields,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.userId))
    .where(
      and(
        eq(auditEvents.workspaceId, workspace.id),
        cursor === undefined ? undefined : lt(auditEvents.id, Number(cursor)),
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(limit);
}

type AuditRow = Awaited<ReturnType<typeof auditRows>>[number];

const present = (row: AuditRow): AuditEventJson => ({
  at: row.at.toISOString(),
  actor: { userId: row.userId, email: row.email, tokenId: row.tokenId },
  action: row.action,
  target: { kind: row.targetKind, id: row.targetId },
  fields: row.fields ? row.fields.split(",") : [],
});

/** GET /api/workspaces/{id}/audit: one page, older than `cursor` (a row's id) if given. */
export async function auditPage(
  db: Db,
  workspace: Workspace,
  limit: number,
  cursor: string | undefined,
): Promise<AuditPageJson> {
  return idPage(await auditRows(db, workspace, limit + 1, cursor), limit, present);
}

/** The most rows one CSV holds: a year of a busy workspace; older ones are pruned anyway (AUDIT_KEEP_DAYS). */
const CSV_MAX_ROWS = 100_000;

const CSV_HEADER = ["at", "user id", "email", "token id", "action", "target kind", "target id", "fields"];

/** GET /api/workspaces/{id}/audit.csv: every kept row, newest first; cells formula-safe (csvCell). */
export async function auditCsv(db: Db, workspace: Workspace): Promise<string> {
  const rows = await auditRows(db, workspace, CSV_MAX_ROWS, undefined);
  return (
    csvRow(CSV_HEADER) +
    rows
      .map((row) =>
        csvRow([
          row.at.toISOString(),
          row.userId,
          row.email,
          row.tokenId,
          row.action,
          row.targetKind,
          row.targetId,
          row.fields,
        ]),
      )
      .join("")
  );
}
