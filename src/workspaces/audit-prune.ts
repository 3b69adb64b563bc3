// The audit log is bounded (docs/decisions/0068): rows older than a year are deleted by the audit-prune job
// (src/compose/server-jobs.ts).
import { lt } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export const AUDIT_KEEP_DAYS = 365;

export async function pruneAuditEvents(db: Db, now: number): Promise<void> {
  const { auditEvents } = tablesOf(db);
  await db.delete(auditEvents).where(lt(auditEvents.createdAt, new Date(now - AUDIT_KEEP_DAYS * 86_400_000)));
}
