// The audit log: every operator action and every automatic disable, naming links by their short address.
import { asc, gte } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";

export type AuditEntry = { actor: string; action: string; subject: string; reason: string };

export async function audit(tx: Db, entry: AuditEntry, at: Date): Promise<void> {
  const { auditLog } = tablesOf(tx);
  await tx.insert(auditLog).values({ ...entry, at });
}

/** Oldest first, from `since` on. */
export async function listAudit(db: Db, since = new Date(0)) {
  const { auditLog } = tablesOf(db);
  return db.select().from(auditLog).where(gte(auditLog.at, since)).orderBy(asc(auditLog.id));
}
