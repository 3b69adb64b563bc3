// Link changes made by another process on SQLite (`linkprev admin links disable`, a suspension, a host block)
// reach this server's /go cache through the audit log, which every such change writes: a poll of its newest id
// every few seconds (not per request), dropping the addresses named by new link rows (and reloading the custom domains on a domain row). On PostgreSQL the change
// bus already carries them; following the log as well only drops an entry twice.
import { gt, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { DOMAINS_CHANGED } from "../domains/model.ts";

export function followAudit(db: Db, invalidate: (address: string) => void, everyMs = 2000): () => void {
  const { auditLog } = tablesOf(db);
  let after: number | null = null;
  const poll = async () => {
    if (after === null) {
      const [{ newest }] = await db
        .select({ newest: sql<number>`coalesce(max(${auditLog.id}), 0)`.mapWith(Number) })
        .from(auditLog);
      after = newest;
      return;
    }
    const rows = await db
      .select({ id: auditLog.id, action: auditLog.action, subject: auditLog.subject })
      .from(auditLog)
      .where(gt(auditLog.id, after))
      .orderBy(auditLog.id);
    for (const row of rows) {
      if (row.action.startsWith("link.")) invalidate(row.subject);
      if (row.action.startsWith("domain.")) invalidate(DOMAINS_CHANGED);
      after = row.id;
    }
  };
  const timer = setInterval(() => void poll().catch(() => {}), everyMs);
  timer.unref();
  void poll().catch(() => {});
  return () => clearInterval(timer);
}
