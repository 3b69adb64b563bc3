// Link changes made by another process on SQLite (`linkprev admin links disable`, a suspension, a host block)
// reach this server's /go cache through the audit log, which every such change writes: a poll of its newest id
// every few seconds (not per request), dropping the addresses named by new link rows (and reloading the custom domains on a domain row). On PostgreSQL the change
// bus already carries them; following the log as well only drops an entry twice.
import { gt, sql } from "drizzle-orm";
import type { Db } from "../db/ports.ts";
import { tablesOf } from "../db/tables.ts";
import { decodeChange, type Change } from "../db/change.ts";

/** How often the audit log's newest rows are read (the job "audit-follower" in src/compose/server-jobs.ts). */
export const AUDIT_POLL_MS = 2000;

/** One poll: the first notes where the log ends now; each later one drops what the rows written since name. */
export function auditFollower(db: Db, invalidate: (change: Change) => void): () => Promise<void> {
  const { auditLog } = tablesOf(db);
  let after: number | null = null;
  return async () => {
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
      // A link row's subject is its short address (link-status.ts), the text of its change.
      const change = row.action.startsWith("link.") ? decodeChange(row.subject) : null;
      if (change !== null) invalidate(change);
      if (row.action.startsWith("domain.")) invalidate({ kind: "domains" });
      after = row.id;
    }
  };
}
